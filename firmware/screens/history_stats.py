"""History → Statistics: one page per statistic the games give (their records, firmware/games.py):
the remembered players' games and wins, the record against Auto-Crassus as a bar chart per level,
Glory scores, Julius Caesar battles. Every player is counted under the name they have now.

Every text is said with ``_()`` when drawn; the entries come from ``ctx.played`` (read light).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PIL import Image

from engine import actions as act
from engine.text import N_
from firmware.games import record_of, records
from firmware.games import screen as screen_of
from firmware.history_joined import joined, root
from firmware.history_text import _, ngettext
from firmware.i18n import decimal
from firmware.replies import HistoryPlayer, PlayedEntry
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.caesar.record import CrassusRow, against_crassus
from firmware.screens.ctx import Ctx, Screen, remade
from firmware.screens.glory.record import RECORD as GLORY
from firmware.screens.glory.record import scores as glory_scores_of
from firmware.screens.jc.record import battles
from firmware.screens.widgets import Intent, Item, ListScreen, TextScreen, intent

LEVELS = (N_("easy"), N_("normal"), N_("hard"))


class StatsMenu(ListScreen):
    """One row per statistics page the games give (their records, firmware/games.py)."""

    title = Said(N_("Statistics"), _)

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(_("Players"), lambda c: c.push(remade(lambda: figures(c, _("Players"), people_rows))))] + [
            Item(_(s.title), partial(_open_statistic, factory=factory))
            for r in records() for s in r.statistics if (factory := screen_of(s.screen)) is not None]


def _open_statistic(ctx: Ctx, factory: Callable[[Ctx], Screen]) -> None:
    ctx.push(remade(lambda: factory(ctx)))


class Figures(TextScreen):
    """A statistics page: figures read once from History (``basis``: what ``ctx.played`` gave
    then). It goes once History has changed under it (an undo took a finished game back, a game
    ended or was corrected over the serial link): no figure counts a game History no longer has."""

    def __init__(self, title: str, rows: list[str], basis: list[PlayedEntry] | None) -> None:
        super().__init__(title, rows)
        self.basis = basis

    def stale(self, ctx: Ctx) -> bool:
        return ctx.played() != self.basis


def figures(ctx: Ctx, title: str, rows: Callable[[Ctx], list[str]]) -> Figures:
    basis = ctx.played()
    return Figures(title, rows(ctx), basis)


def crassus_chart(ctx: Ctx) -> Screen:
    return CrassusChart()


def glory_scores(ctx: Ctx) -> Screen:
    return figures(ctx, _("Glory of Rome"), glory_rows)


def jc_battles(ctx: Ctx) -> Screen:
    return figures(ctx, _("JC battles"), jc_rows)


def same_people(ctx: Ctx, entries: list[PlayedEntry]) -> list[PlayedEntry]:
    """``entries`` with every player under the name they have now (a renamed player's earlier
    names are theirs: History → Players → Rename), so statistics key on the same person."""
    response = ctx.run(act.players())
    now: dict[str, str] = {}
    for name, was in (response.get("was") or {}).items():
        for old in was:
            now[str(old).casefold()] = str(name)
    for name in response.get("players") or []:
        now[str(name).casefold()] = str(name)
    same = {name for folded, name in now.items() if name.casefold() == folded}    # names as they are now
    out: list[PlayedEntry] = []
    for e in entries:
        if all(p["name"] in same or str(p["name"]).casefold() not in now for p in e["players"]):
            out.append(e)                   # nobody to rename: the entry as read (never changed)
            continue
        players: list[HistoryPlayer] = [{**p, "name": now.get(str(p["name"]).casefold(), p["name"])}
                                        for p in e["players"]]
        out.append({**e, "players": players})
    return out


UNREADABLE = N_("History cannot be read now. Check the card.")


def _known(ctx: Ctx) -> list[PlayedEntry] | None:
    """Every History entry, each player under today's name, as the statistics take them (read
    light: no result sentence, no fair draw — ``ctx.played``); None when the card cannot be read."""
    played = ctx.played()
    return None if played is None else same_people(ctx, joined(played)[0])    # (a game played on in a copy: once)


def sessions_played(entries: list[PlayedEntry]) -> list[tuple[PlayedEntry, dict[str, bool]]]:
    """One game per session that finished a part (History keeps a Julius Caesar campaign's every
    battle as a play, J-13, and its verdict, J-17: together one game; a game reopened from Earlier
    games and played on in copies is one game with them: firmware/history_joined.py): the entry standing for it
    and, per player named in any of its finished parts, whether they won it. The verdict is the
    session's whole-game part (the campaign); a session of one battle (ended then, PROTOCOL.md: a
    single battle's end) is decided by that battle; battles with no verdict are played, not won."""
    parts: dict[str, list[PlayedEntry]] = {}
    for e in entries:           # (by the session the game was first played in: its copies' too)
        if e["status"] == "finished":
            parts.setdefault(root(e), []).append(e)
    out: list[tuple[PlayedEntry, dict[str, bool]]] = []
    for group in parts.values():
        whole = [e for e in group if not e["part"].startswith("battle-")]
        verdict = whole[0] if whole else group[0] if len(group) == 1 else None
        won = {p["name"]: False for e in group for p in e["players"]}
        if verdict is not None:
            won.update({p["name"]: bool(p["winner"]) for p in verdict["players"]})
        out.append((verdict or group[0], won))
    return out


def people_rows(ctx: Ctx) -> list[str]:
    """Every remembered player across all games: games played and won, then per game (a session
    is one game: :func:`sessions_played`)."""
    known = [str(n) for n in ctx.run(act.players()).get("players") or []]
    games: dict[str, list[tuple[PlayedEntry, bool]]] = {n: [] for n in known}   # (entry, won)
    entries = _known(ctx)
    if entries is None:
        return [_(UNREADABLE)]
    for e, outcome in sessions_played(entries):
        for name, w in outcome.items():
            if name in games:
                games[name].append((e, w))
    rows: list[str] = []
    labels: dict[str, str] = {}                 # a game's name as said (once a game, not once a play)
    for name in known:
        played = games[name]
        if not played:
            continue
        won = sum(1 for _e, w in played if w)
        rows.append(name)
        rows.append("  " + ngettext("{} game, {} won", "{} games, {} won", len(played)).format(len(played), won))
        by_game: dict[str, list[bool]] = {}
        for e, w in played:
            if (label := labels.get(e["game"])) is None:
                record = record_of(e["game"])
                label = labels[e["game"]] = _(record.label) if record is not None else str(e["game"])
            by_game.setdefault(label, []).append(w)
        for label, results in by_game.items():
            # the figures are never broken: a row too short for both has «Glory of Rome:» and «0/1 won»
            # under it, never «won» alone on a row
            figures = _("{}/{} won").format(sum(results), len(results)).replace(" ", base.TIE)
            rows.append("  " + _("{game}: {record}").format(game=label, record=figures))
    return rows or [_("No game with named players yet.")]


def crassus_by_level(rows: dict[str, CrassusRow]) -> dict[str | None, tuple[int, int, int]]:
    """difficulty -> (wins, losses, streak), every expansion set together; the streak of the
    set played last at that level."""
    out: dict[str | None, tuple[int, int, int]] = {}
    for row in rows.values():
        w, l, s = out.get(row["difficulty"], (0, 0, 0))
        out[row["difficulty"]] = (w + row["wins"], l + row["losses"], s or row["streak"])
    return out


class CrassusChart:
    """One row per level against Auto-Crassus: the level and ``wins/losses``, and under them a bar
    whose filled part is the wins and hollow part the losses (the longest record spans the panel;
    a row each, so the rulebook's level words fit whole in every language); A or down shows the
    same per expansion set as text."""

    def __init__(self) -> None:
        self.title = _("vs Auto-Crassus")
        self._levels: dict[str | None, tuple[int, int, int]] | None = None
        self._read = False
        self._basis: list[PlayedEntry] | None = None

    def levels(self, ctx: Ctx) -> dict[str | None, tuple[int, int, int]] | None:
        """The figures, read once when the chart is first drawn (every game in History: not at
        every frame); None when the card cannot be read."""
        if not self._read:
            self._basis = ctx.played()
            known = None if self._basis is None else same_people(ctx, joined(self._basis)[0])
            self._read = True
            self._levels = None if known is None else crassus_by_level(against_crassus(known))
        return self._levels

    def stale(self, ctx: Ctx) -> bool:
        """True once History has changed since the chart read it (as :class:`Figures`)."""
        return self._read and ctx.played() != self._basis

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, _("vs Auto-Crassus"), _("W/L"))
        levels = self.levels(ctx)                                   # Statistics → vs Auto-Crassus
        if levels is None:
            base.lines(draw, base.wrap(_(UNREADABLE)))
            return img
        if not levels:
            base.lines(draw, base.wrap(_("No solo game finished yet.")))
            return img
        most = max(w + l for w, l, _s in levels.values()) or 1
        span = base.W - 3
        for i, level in enumerate(LEVELS):
            w, l, _s = levels.get(level, (0, 0, 0))
            y = base.TITLE_H + 1 + i * 17
            figures = f"{w}/{l}"
            base.put(draw, 1, y, _(level))
            base.put(draw, base.W - len(figures) * base.CHAR_W - 1, y, figures)
            won, played = round(span * w / most), round(span * (w + l) / most)
            if played:
                draw.rectangle((1, y + 12, 1 + played, y + 15), outline=1, fill=0)
            if won:
                draw.rectangle((1, y + 12, 1 + won, y + 15), fill=1)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("row", key)
        if what is Intent.BACK:
            ctx.pop()
        elif what in (Intent.SELECT, Intent.NEXT):
            ctx.push(remade(lambda: figures(ctx, _("vs Auto-Crassus"), crassus_rows)))


def _streak(n: int) -> str:
    if n > 0:
        return _("won {} in a row").format(n)
    if n < 0:
        return _("lost {} in a row").format(-n)
    return ""


def crassus_rows(ctx: Ctx) -> list[str]:
    rows = []
    known = _known(ctx)
    if known is None:
        return [_(UNREADABLE)]
    def order(row: CrassusRow) -> tuple[int, bool, str]:       # the chart's order: easy, normal, hard;
        level = row["difficulty"]                                # the base game before its modules
        return (LEVELS.index(level) if level in LEVELS else len(LEVELS), row["expansions"] != "base",
                str(row["expansions"]))
    for row in sorted(against_crassus(known).values(), key=order):
        from firmware.screens.caesar.record import expansions_said
        exp = _("base game") if row["expansions"] == "base" else expansions_said(row["expansions"])
        # each module's name whole on a row («сложный, базовая» / «игра:» left a word alone)
        exp = ", ".join(_whole(name) for name in exp.split(", "))
        rows.append(f"{_(str(row['difficulty']))}, {exp}:")
        rows.append("  " + _("{} won, {} lost").format(row["wins"], row["losses"]))
        if row["streak"]:
            rows.append("  " + _streak(row["streak"]))
    return rows or [_("No solo game finished yet.")]


def _whole(words: str) -> str:
    """``words`` kept on one row by the wrap (their spaces :data:`base.TIE`) when they fit one."""
    return words.replace(" ", base.TIE) if len(words) < base.COLS else words


def glory_rows(ctx: Ctx) -> list[str]:
    rows = []
    known = _known(ctx)
    if known is None:
        return [_(UNREADABLE)]
    for name, g in glory_scores_of(known).items():
        rows.append(name)
        rows.append("  " + _("best {}").format(g["best"]))          # one figure a row: «best 40, average»
        rows.append("  " + _("average {}").format(decimal(g["average"])))     # / «40.0» split the pair
        rows.append("  " + ngettext("{} game", "{} games", g["games"]).format(g["games"]))
    if not rows and any(e["status"] == "finished" and e["game"] in GLORY.sessions
                        and any(isinstance(p["score"], int) for p in e["players"]) for e in known):
        return [_("No game with named players yet.")]          # scored, but only seats' colours played
    return rows or [_("No Glory game scored yet.")]


def jc_rows(ctx: Ctx) -> list[str]:
    rows = []
    known = _known(ctx)
    if known is None:
        return [_(UNREADABLE)]
    for side, r in battles(known).items():
        if not (r["attacker_fought"] or r["defender_fought"]):
            continue
        rows.append(_(side.capitalize()) + ":")
        rows.append("  " + _("attacking {}/{} won").format(r["attacker_won"], r["attacker_fought"]))
        rows.append("  " + _("defending {}/{} won").format(r["defender_won"], r["defender_fought"]))
    return rows or [_("No battle fought yet.")]
