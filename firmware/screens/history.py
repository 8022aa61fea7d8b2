"""History (main menu → History): finished games newest first, one game's detail, Statistics
(your record against Auto-Crassus as a bar chart, Glory scores, Julius Caesar battles), the fair
draw of the running game (its commitment, big; the players' share; "End the game…"; the seed only
once the game has ended, when the players ask), "Send over serial" of the newest game (the BG Stats
play as one JSON line) and "Send the draw record" of the newest ended game (``export format=draws``;
an ended game's page sends its own).
A game whose time was taken while the clock was not synchronised is marked ``~`` in the list; two
games of the same name on one day show the time each ended instead of the day (:func:`listed_days`).

Every text is said with ``_()`` when drawn; the records come from firmware/history.py.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from functools import partial


from engine import actions as act
from engine.text import N_
from firmware.games import record_of
from firmware.history_joined import earlier_rows, joined, root
from firmware.history_text import Msg, _, no_share_words, play_time_said, say
from firmware.replies import HistoryEntry, HistoryPlayer
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx
from firmware.screens.fair_draw import FairDrawScreen
from firmware.screens.history_stats import StatsMenu
from firmware.screens.play import run_or_notify
from firmware.screens.widgets import (Item, WrappedListScreen)
from firmware.screens.widgets.listing import item_rows, wrap_label
from firmware.screens.widgets.people import PlayersScreen

LISTED = 50


def _entries(ctx: Ctx, limit: int | None = LISTED) -> list[HistoryEntry]:
    """The recorded games; none when the card cannot be read (see :func:`_readable`)."""
    return ctx.history(limit) or []


def _day(iso: str | None) -> str:
    """``2026-11-23T…`` → ``23.11``: the day in local time, as the export's ``playDate`` says it."""
    from firmware.export_dates import local
    when = local(iso)
    return when.strftime("%d.%m") if when is not None else ""


def game_name(entry: HistoryEntry) -> str:
    """The game of a History entry on the panel, short, in the current language (its record says
    which words: ``Caesar! duel``, ``JC battle 2``…); the English box name of an unknown game."""
    named = game_named(entry)
    return say(named) if isinstance(named, Msg) else named


def game_named(entry: HistoryEntry) -> str:
    """:func:`game_name` as a sentence (a :class:`Msg`: said again in the language of the moment)."""
    record = record_of(entry["game"])
    if record is None:
        return str(entry.get("name") or entry["game"])
    label = record.short(entry) if record.short is not None else record.label
    return Msg(label, entry["mode"].get("number", ""))


def menu_label() -> str:
    """The main menu's entry (the menu belongs to the legatus catalog; this text to history)."""
    return _("History")


def open_history(ctx: Ctx) -> None:
    ctx.push(HistoryScreen())


def _unreadable(ctx: Ctx) -> None:
    """History the card cannot read now: A on its row says so again, and what to do."""
    ctx.notify(Msg("History cannot be read now. Check the card."))


def _no_games(ctx: Ctx) -> None:
    """History with no game yet: what shows here, and how to get it (A on a row never does
    nothing without a word)."""
    ctx.notify(Msg("A game is kept here once it ends. Games, on the main menu, starts one."))


class HistoryScreen(WrappedListScreen):
    """Statistics, Fair draw, Players and Send first, then the games (newest first, with their day);
    it opens on the newest game (what a table opens History for), the rows above one press up each.
    It lists the newest :data:`LISTED` games at first (each read costs a Pi more with every game);
    "Older games…" under them lists :data:`LISTED` more, as long as History has older ones. The
    games' rows are made once per read of History (:meth:`_games`): a list paged out to thousands
    of games costs a key what its rows on the panel cost, not a sentence and a date per game."""

    title = Said(N_("History"), _)

    def __init__(self) -> None:
        super().__init__()
        self.placed = False
        self.shown = LISTED                     # the games listed; "Older games…" lists LISTED more
        # the games' rows as last made: what they were made of (:meth:`_games`), the rows,
        # their heights on the panel by the rows the list has, whether one has ended, the games'
        # names and days (:func:`list_day`)
        self._made: tuple[tuple[object, object, object], list[Item], dict[int, list[int]], bool,
                          list[str], list[str]] | None = None
        self._span = (0, 0)                     # where those rows are in the items last given

    def items(self, ctx: Ctx) -> list[Item]:
        read = ctx.history(self.shown + 1)      # one more: whether there are older games to offer
        entries = joined((read or [])[:self.shown])[0]      # (a game played on in a copy: one row)
        out = [Item(_("Statistics"), lambda c: c.push(StatsMenu())),
               Item(_("Fair draw"), lambda c: c.push(FairDrawScreen())),
               Item(_("Players"), lambda c: c.push(PlayersScreen()))]
        from firmware.export_plays import is_tool
        if any(not is_tool(e) for e in entries):        # (a dice or bag session is no play to send)
            out.append(Item(_("Send over serial"), send_newest))
        games, ended = self._games(entries)
        if ended:
            out.append(Item(_("Send the draw record"), send_draws))
        if read is None:                        # never "No games yet": that would say a loss as a fact
            out.append(Item(_("History cannot be read…"), _unreadable, ident="unreadable"))
        elif not entries:               # as Fair draw's «Nothing in play…»: A on it says how a row comes
            out.append(Item(_("No games yet…"), _no_games, ident="none"))
        self._span = (len(out), len(out) + len(games))
        out += games
        if not self.placed:                     # on the newest game
            self.placed, self.cursor = True, len(out) - len(entries) if entries else 0
            self._mark = self.cursor
        if read is not None and len(read) > self.shown:      # never a game History has that cannot be seen
            # (its ident names the games listed: once they are more, the cursor stays where the row
            # was, on the first of the older games now listed, not on the row that moved down)
            out.append(Item(_("Older games…"), self._older, ident=f"older:{self.shown}"))
        return out

    def _older(self, ctx: Ctx) -> None:
        self.shown += LISTED

    def _games(self, entries: list[HistoryEntry]) -> tuple[list[Item], bool]:
        """The games' rows (each game's name and day, said in the language of the moment) and
        whether one of them has ended (its draw record can be sent): made again only when History
        was read anew (the App keeps a read until the card may read differently: the same entries)
        or the language or time zone changed; more games listed ("Older games…": the App reads
        the older rows only) add their rows to those made (all are made again when one of them
        is a game of the same name and day as one listed: see :func:`listed_days`)."""
        from firmware.i18n import language
        said = (language(), time.tzname)
        made = self._made
        if made is not None and made[0][2] == said and entries and made[1] and entries[0] is made[0][0] \
                and len(entries) >= len(made[1]) and entries[len(made[1]) - 1] is made[0][1]:
            old = len(made[1])
            if old == len(entries):
                return made[1], made[3]
            names = made[4] + [game_name(e) for e in entries[old:]]
            days = made[5] + [list_day(e) for e in entries[old:]]
            shown = listed_days(entries, names, days)
            if shown[:old] == [str(i.value) for i in made[1]]:    # (the rows made are as they were)
                more = [self._row(e, n, d) for e, n, d in zip(entries[old:], names[old:], shown[old:], strict=True)]
                rows, ended = made[1] + more, made[3] or any(e.get("seed") is not None for e in entries[old:])
                heights = {n: h + [len(item_rows(i, n, self.wrap_rows)) for i in more] for n, h in made[2].items()}
                self._made = ((entries[0], entries[-1], said), rows, heights, ended, names, days)
                return rows, ended
        names, days = [game_name(e) for e in entries], [list_day(e) for e in entries]
        rows = [self._row(e, n, d) for e, n, d in zip(entries, names, listed_days(entries, names, days), strict=True)]
        ended = any(e.get("seed") is not None for e in entries)
        self._made = ((entries[0] if entries else None, entries[-1] if entries else None, said), rows, {}, ended,
                      names, days)
        return rows, ended

    def _row(self, entry: HistoryEntry, name: str, day: str) -> Item:
        mark = "×" if entry["status"] == "abandoned" else ""
        return Item(f"{mark}{name}", partial(self._open, entry), day)

    def _open(self, entry: HistoryEntry, ctx: Ctx) -> None:
        _detail(entry, ctx, limit=self.shown + 1)     # (the games listed when it opens: the list's read)

    def _heights(self, items: Sequence[Item], rows: int) -> list[int]:
        """As the list's, with the games' rows measured once (:meth:`_games`)."""
        start, end = self._span
        made = self._made
        if made is None or end - start != len(made[1]) or len(items) < end or (
                end > start and (items[start] is not made[1][0] or items[end - 1] is not made[1][-1])):
            return super()._heights(items, rows)
        games = made[2].get(rows)
        if games is None:
            games = made[2][rows] = [len(item_rows(i, rows, self.wrap_rows)) for i in made[1]]
        return super()._heights(items[:start], rows) + games + super()._heights(items[end:], rows)


def side_word(entry: HistoryEntry, role: str) -> str:
    """A side's name in the current language (``caesar`` → «Цезарь»), as its game's record names it."""
    record = record_of(entry["game"])
    word = record.seats.get(role) if record is not None else None
    return _(word) if word else _(role.capitalize())


def player_label(entry: HistoryEntry, p: HistoryPlayer, width: int = base.COLS, left: str | None = None) -> str:
    """A History player on the panel in ``width`` columns: the person and the side they played
    (``Анна (Цезарь)``), the side alone when nobody was named, a seat nobody was named for in the
    current language (Glory's «Червоний», kept as «Красный»), any other name as it is (in the
    current language if it is a word of the game's); a player the game names itself with the side
    ``left`` him (Auto-Crassus: ``Авто-Красс (Помпей)``, :func:`side_left`; the row may wrap: the
    game's words are never cut). A name a person typed is cut (:func:`base.clip_name`) so that the
    side stays whole on the row (the whole label was cut: «Максиміліан Оле…», no side)."""
    from firmware.seats import seats_said
    name = str(p.get("name", ""))
    role = p.get("role")
    if role is None and left is not None:       # the game's own word, never cut
        return f"{name} ({side_word(entry, left)})"
    if role is None:         # (a seat nobody was named for in the language of the moment: «Червоний»)
        return base.clip_name(say(seats_said(entry["game"], name)), width)
    side = side_word(entry, str(role))
    if name.casefold() in (str(role).casefold(), side.casefold()):
        return side
    return f"{base.clip_name(name, max(width - len(side) - 3, 4))} ({side})"     # («Максим… (Помпей)»)


def side_left(entry: HistoryEntry, p: HistoryPlayer) -> str | None:
    """The side a player the game names itself played (Caesar!'s Auto-Crassus: the one the player
    left him, S-1), as firmware/export.py ``people`` gives it to BG Stats; None for anyone else
    (``p`` as History keeps it: «Auto-Crassus», before the game's words say it)."""
    from firmware.export import _side_left
    from firmware.seats import placeholder_said
    if p.get("role") is not None or placeholder_said(entry["game"], str(p.get("name", ""))) is None:
        return None
    return _side_left(dict(entry.items()))


def list_day(entry: HistoryEntry) -> str:
    """The day a History row shows: ``23.11``, marked ``~23.11`` when the clock was not synchronised
    when the game ended (the detail says so in words); a game that ended with a clock nothing had
    set (1970: the device restarted with no network and no saved time) but began with a date, the
    day it began (the day its BG Stats play gives: it showed none)."""
    from firmware.export_dates import unset_clock
    key, day = "finished", _day(entry.get("finished"))
    if not day and unset_clock(entry.get("finished")):
        key, day = "started", _day(entry.get("started"))
    return f"~{day}" if day and key in entry.get("unsynced", ()) else day


def list_time(entry: HistoryEntry) -> str:
    """The time a game ended, as a History row shows it in place of its day (:func:`listed_days`):
    ``18:40``, marked ``~18:40`` as :func:`list_day` marks the day."""
    from firmware.export_dates import local
    when = local(entry.get("finished"))
    if when is None:
        return ""
    return f"~{when:%H:%M}" if "finished" in entry.get("unsynced", ()) else f"{when:%H:%M}"


def listed_days(entries: Sequence[HistoryEntry], names: Sequence[str], days: Sequence[str]) -> list[str]:
    """What each History row shows beside its game: its day (:func:`list_day`); for two or more
    games of the same name on the same day (two battles of one evening, two Glory games) the time
    each ended instead, as wide as the day (``18:40`` / ``21:05``): rows that read the same told
    the games apart only on their pages. (Their day is on the page, and on the rows of that day's
    other games.) ``days``: each game's :func:`list_day`."""
    seen = Counter(zip(names, (d.lstrip("~") for d in days), strict=True))   # (one day, its clock set or not)
    return [list_time(e) or d if d and seen[(n, d.lstrip("~"))] > 1 else d
            for e, n, d in zip(entries, names, days, strict=True)]


def says_abandoned(result: object) -> bool:
    """Whether a result sentence is the one History gives an abandoned game («Abandoned after 2
    actions.»): it says so already."""
    from engine import text
    from firmware.history_text import ABANDONED_BEFORE, abandoned
    return isinstance(result, text.Msg) and result.template in (abandoned(2).template, ABANDONED_BEFORE)


def detail_rows(entry: HistoryEntry, earlier: Sequence[HistoryEntry] = ()) -> list[str]:
    """One game for a person: result, the players with score (✓ the winner), the mode, dates
    (``earlier``: the records of it joined into this one, firmware/history_joined.py)."""
    record = record_of(entry["game"])
    left = [side_left(entry, p) for p in entry["players"]]          # (by the names as kept: «Auto-Crassus»)
    if record is not None and record.shown is not None:      # the game's own words
        entry = record.shown(entry)
    from firmware.seats import seats_said
    rows = [game_name(entry), say(seats_said(entry["game"], entry["result"]))]
    for was in entry.get("replaced", ()):       # a finish an undo took back, then another finish
        rows.append(_("Before an undo it had ended: {}").format(say(was["result"])))
    if entry["status"] == "abandoned" and not says_abandoned(entry["result"]):   # (not twice: «Брошена
        rows.append(_("Abandoned"))                                                # после 2 действий.» / «Брошена»)
    rows += earlier_rows(entry, earlier)        # (reopened from Earlier games: when, and how it was left)
    for p, side in zip(entry["players"], left, strict=True):
        score = ": ?" if p.get("damaged") else "" if p.get("score") is None else f": {p['score']}"
        rows.append(f"{'✓' if p.get('winner') else '·'}{player_label(entry, p, base.COLS - 1 - len(score), side)}{score}")
    if any(p.get("damaged") for p in entry["players"]):     # (a score the damage took: firmware/history_rebuild.py)
        rows.append(_("?: the score was damaged on the card; nothing holds it again."))
    mode = entry["mode"]
    if mode.get("difficulty"):
        rows.append(_("Level: {}").format(_(str(mode["difficulty"]))))
    if mode.get("expansions"):
        rows.append(_("Modules: {}").format(", ".join(str(x) for x in mode["expansions"])))
    if mode.get("side"):
        rows.append(_("Side: {}").format(side_word(entry, str(mode["side"]))))
    rows += [str(note) for note in mode.get("notes", ())]
    from firmware.export_dates import duration_min, local, unset_clock
    when = local(entry.get("finished"))
    ended = when.strftime("%d.%m.%Y %H:%M") if when is not None else ""     # the list's day, «26.11»
    if ended:                                   # (no date: no row saying "Ended" of nothing)
        rows.append(_("Ended {} (clock not set: date uncertain)").format(ended)
                    if "finished" in entry.get("unsynced", ()) else _("Ended {}").format(ended))
    elif unset_clock(entry.get("finished")):    # 1970: a time, but no date (export_dates.local)
        if (begun := local(entry.get("started"))) is not None:     # (the day the list shows, list_day)
            said = begun.strftime("%d.%m.%Y %H:%M")
            rows.append(_("Begun {}").format(f"~{said}" if "started" in entry.get("unsynced", ()) else said))
        rows.append(_("Ended: date not known (clock not set)"))
    played = duration_min(dict(entry.items()))  # what the exports give (firmware/play_time.py)
    if played is not None:
        rows.append(play_time_row(played))
    if entry.get("commitment"):                 # an ended game with a secret seed (public now)
        rows.append(_("Fair-draw code {}").format(str(entry["commitment"])[:8]))
        rows += share_rows(str(entry["share"])) if entry.get("share") else [no_share_words(entry.get("no_share"))]
        rows.append(_("Seed: {}").format(entry["seed"]))
    rows.append(_("No. {}").format(entry["id"]))
    return rows


def play_time_row(minutes: int) -> str:
    """The play time's row of a game's page: hours and minutes in whole words («Время игры: 1 час
    35 минут») unless they take more rows of the list than their abbreviations («Час гри: 1 год 35
    хв» is one row, «Час гри: 1 година 35 хвилин» two): decided for the row, in every language."""
    whole, short = play_time_said(minutes), play_time_said(minutes, short=True)
    return short if len(wrap_label(short, base.COLS - 1)) < len(wrap_label(whole, base.COLS - 1)) else whole


def share_rows(share: str, rows: int = base.ROWS) -> list[str]:
    """The players' share (up to 64 characters) as rows of a list: «Share: X» when it fits ``rows``
    rows, the share whole on one, else «Share:» and the share on rows of its own (never cut, never
    a hyphen added: :func:`base.code_rows`)."""
    said = _("Share: {}").format(share)
    room = base.COLS - 1
    return ([said] if len(share) <= room and len(wrap_label(said, room)) <= rows
            else [_("Share:"), *base.code_rows(share, room)])


def _detail(entry: HistoryEntry, ctx: Ctx, limit: int = LISTED) -> None:
    ctx.push(GameScreen(entry, limit))


class GameScreen(WrappedListScreen):
    """One game: "Send the draw record" once it has ended (a game a new game put aside before it
    ended: how to see its draws, as the serial link's ``export format=draws`` says it:
    :func:`aside_rows`), "Send over serial" (its BG Stats link on the serial line), then what
    History keeps of it (result, players and sides, mode, dates), rows never cut. It opens on the
    game (what the page is opened for: its score was under the two Send rows, past the first page),
    Send one press up; A on a row that is only to read says so, and where Send is."""

    title = Said(N_("Game"), _)

    def __init__(self, entry: HistoryEntry, limit: int = LISTED) -> None:
        super().__init__()
        self.entry = entry
        self.earlier: list[HistoryEntry] = []
        self.copies: list[HistoryEntry] = []    # the records of its copies reopened from Earlier games
        self.limit = limit           # the newest games read to find it again (as many as the list read)
        self.placed = False          # (the cursor placed on the game as the page opens)
        from firmware.export_plays import is_tool
        from firmware.games import record_of
        tool = record_of(str(entry["game"])) if is_tool(entry) else None
        if tool is not None:         # a dice or bag session is no game: its page is titled by its tool
            self.title = tool.label  # («Кубики»; it read «Партия»)

    def kept(self, ctx: Ctx) -> HistoryEntry | None:
        """History's record of this game as it is now (an undo of the finishing step takes it out;
        a correction after it changes it); the one shown when History cannot be read now, or when
        games finished since have pushed it out of the newest ``limit`` (it is older than all of
        them: History keeps it, only this read does not reach it)."""
        read = ctx.history(self.limit)
        if read is None:
            return self.entry
        self.copies = [e for e in read if root(e) == root(self.entry) and e.get("sid") != self.entry.get("sid")]
        kept, earlier = joined(read)            # (a record joined into another is no page of its own)
        self.earlier = earlier.get(int(self.entry["id"]), [])
        found = next((e for e in kept if e["id"] == self.entry["id"]), None)
        if found is None and len(read) >= self.limit and all(e["id"] > self.entry["id"] for e in read):
            return self.entry
        return found

    def stale(self, ctx: Ctx) -> bool:
        """True once History no longer has this game (the App takes the screen off)."""
        return self.kept(ctx) is None

    def items(self, ctx: Ctx) -> list[Item]:
        self.entry = self.kept(ctx) or self.entry
        from firmware.export_plays import is_tool                # (a dice or bag session: no play to send)
        sends = []
        if self.entry.get("seed") is not None:       # ended: its draws can be checked (any game, not the newest only)
            sends.append(Item(_("Send the draw record"), partial(send_draws_of_entry, entry=self.entry), ident="draws"))
        elif not is_tool(self.entry) and not self._running(ctx):     # put aside by a new game before it ended
            copy = max((int(e["id"]) for e in self.copies if e.get("seed") is not None), default=None)
            sends += [Item(row, self._read, ident=f"aside:{i}") for i, row in enumerate(aside_rows(int(self.entry["id"]), copy))]
        if not is_tool(self.entry):                  # just above the game: one press up
            sends.append(Item(_("Send over serial"), partial(send_entry, entry=self.entry), ident="send"))
        if not self.placed:                          # it opens on the game, its first row at the top
            self.placed, self.cursor = True, len(sends)
            self._mark = self.top = self.cursor
        return sends + [Item(row, self._read, ident=f"row:{i}") for i, row in enumerate(detail_rows(self.entry, self.earlier))]

    def _read(self, ctx: Ctx) -> None:
        """A on a row that is only to read: it says so, and where the page's Send is."""
        idents = {i.ident for i in self.items(ctx)}
        ctx.notify(Msg("This row is only to read; Send over serial is above the game.") if "send" in idents else
                   Msg("This row is only to read; Send the draw record is at the top of the page.") if "draws" in idents
                   else Msg("This row is only to read."))


    def _running(self, ctx: Ctx) -> bool:
        """Whether this game's session is the one being played (its draws come with its end): by
        the running session's fair draw, the typed view every screen has (its ``session``)."""
        draw = ctx.fair_draw()
        return draw is not None and bool(draw.session) and draw.session == self.entry.get("sid")


def aside_rows(number: int, copy: int | None = None, rows: int = base.ROWS) -> list[str]:
    """What a game's page says of the draws of a game a new game put aside before it ended (no
    seed is shown before its end, PROTOCOL.md; it can be reopened from Earlier games): the sentence
    the serial link's ``export format=draws`` refuses it with (firmware/history_record.py; ``copy``:
    the record of a copy of it that has ended, whose draw record holds the seed), on as many rows of
    the list as it takes, each at most ``rows`` rows on the panel (a row longer than the panel's
    body was cut: the list shows an item's first ``rows`` rows only)."""
    said = Msg("Game {}: its draws are shown once its session has ended, and another game put that session "
               "aside before it ended. To check them, reopen it (Games → Earlier games), end it, and ask "
               "again.", number) if copy is None else \
        Msg("Game {}: a copy of it reopened from Earlier games has ended (game {}), and the seed is in that "
            "game's draw record; this session itself was put aside before it ended, so it has no draw record "
            "of its own.", number, copy)
    lines = wrap_label(say(said), base.COLS - 1)
    return [" ".join(lines[i:i + rows]) for i in range(0, len(lines), rows)]


def send_newest(ctx: Ctx) -> None:
    """The newest game's BG Stats link over the serial link (:func:`send_entry`): a dice or bag
    session ended since is no game (firmware/export.py ``is_tool``), the game before it is sent."""
    from firmware.export_plays import is_tool
    game = next((e for e in _entries(ctx) if not is_tool(e)), None)
    if game is None:
        ctx.notify(Msg("No finished games yet."))
        return
    send_entry(ctx, game)


def send_entry(ctx: Ctx, entry: HistoryEntry) -> None:
    """One game over the serial link as one JSON line: what ``export format=bgstats id=N`` answers
    (``link``: BG Stats' push link, ready to open; ``play``, ``text``, ``fair``), asked of the
    console so that the people carry the ids the remembered players give them."""
    response = run_or_notify(ctx, act.export("bgstats", int(entry["id"])))
    if response is None:
        return
    from firmware.screens.history_draws import tell_sent
    played = next((e for e in _entries(ctx) if e["id"] == response.get("id")), entry)   # (a Julius Caesar
    tell_sent(ctx, ctx.send_reply(response), sent_words(played, str(response.get("status", ""))))   # battle
    #                                                                                   sends its game's play)


def sent_words(played: HistoryEntry, status: str) -> Msg:
    """What "Send over serial" sent, as a sentence: the play of ``played`` (the entry the answer's
    ``id`` names; ``status``: the answer's) by its game's name — or, for a Julius Caesar campaign
    going on, whose play is the game so far (firmware/export.py ``play_of``: its newest battle's
    id, ``ended``, no winner), that the unfinished game was sent, with its battles and no result
    yet (it said «Sent: JC battle 2.», the newest battle, from battle 1's page)."""
    record = record_of(played["game"])
    if (record is not None and record.parted is not None and record.parted(str(played.get("part", "")))
            and status == "ended" and played["status"] != status):
        n = int(played["mode"].get("number") or 0)
        return Msg("Sent the unfinished game: {n} battle, no result yet.",
                   plural="Sent the unfinished game: {n} battles, no result yet.", n=n)
    return Msg("Sent: {}.", game_named(played))


def send_draws_of_entry(ctx: Ctx, entry: HistoryEntry) -> None:
    """A game's draw record over the serial link (its page's "Send the draw record")."""
    from firmware.screens.history_draws import send_draws_of
    send_draws_of(ctx, entry, session_named(entry))


def session_named(entry: HistoryEntry) -> str:
    """The game whose draw record ``entry``'s is, named: a Julius Caesar battle's is its session's,
    every draw of every battle (docs/fairness.md), so it is the game's name («Julius Caesar»; it
    read «Sent the draws of: JC battle 1.»); any other entry's as :func:`game_named`."""
    record = record_of(entry["game"])
    if record is not None and record.parted is not None and record.parted(str(entry.get("part", ""))):
        return Msg(record.label)
    return game_named(entry)


def send_draws(ctx: Ctx) -> None:
    """The draw record of the newest ended game (``export format=draws``) over the serial link, as
    the console would answer it: scripts/verify_draws.py checks every draw from it. On the device
    it is made off the main loop (firmware/screens/history_draws.py)."""
    from firmware.screens.history_draws import send_draws_of
    ended = [e for e in _entries(ctx) if e.get("seed") is not None]
    if not ended:
        ctx.notify(Msg("No ended game yet: its draws are shown once it has ended."))
        return
    send_draws_of(ctx, ended[0], session_named(ended[0]))
