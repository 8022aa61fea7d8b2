"""History (main menu → History): finished games newest first, one game's detail, Statistics
(your record against Auto-Crassus as a bar chart, Glory scores, Julius Caesar battles), the fair
draw of the running game (its commitment, big; the seed once the game is over) and "Send over
serial" of the newest game (the BG Stats play as one JSON line).

Every text is said with ``_()`` when drawn; the records come from firmware/history.py.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from PIL import Image

from engine import actions as act
from engine.text import N_
from firmware.games import record_of, records
from firmware.games import screen as screen_of
from firmware.i18n import _, ngettext, say
from firmware.screens import base
from firmware.screens.base import Said
from firmware.screens.ctx import Ctx, Screen
from firmware.screens.widgets import Intent, Item, ListScreen, TextScreen, intent

LISTED = 50
LEVELS = (N_("easy"), N_("normal"), N_("hard"))


def _entries(ctx: Ctx, limit: int | None = LISTED) -> list[dict[str, Any]]:
    return ctx.history(limit)


def _day(iso: str | None) -> str:
    """``2026-11-23T…`` → ``23.11``."""
    if not iso or len(iso) < 10:
        return ""
    return f"{iso[8:10]}.{iso[5:7]}"


def game_name(entry: dict[str, Any]) -> str:
    """The game of a History entry on the panel, short, in the current language (its record says
    which words: ``Caesar! duel``, ``JC battle 2``…); the English box name of an unknown game."""
    record = record_of(entry["game"])
    if record is None:
        return str(entry.get("name") or entry["game"])
    label = record.short(entry) if record.short is not None else record.label
    return _(label).format(entry["mode"].get("number", ""))


def menu_label() -> str:
    """The main menu's entry (the menu belongs to the legatus catalog; this text to history)."""
    return _("History")


def open_history(ctx: Ctx) -> None:
    ctx.push(HistoryScreen())


class HistoryScreen(ListScreen):
    """Statistics, Fair draw and Send first, then the games (newest first, with their day)."""

    title = Said(N_("History"))

    def items(self, ctx: Ctx) -> list[Item]:
        entries = _entries(ctx)
        out = [Item(_("Statistics"), lambda c: c.push(StatsMenu())),
               Item(_("Fair draw"), lambda c: c.push(FairDrawScreen()))]
        if entries:
            out.append(Item(_("Send over serial"), send_newest))
        if not entries:
            out.append(Item(_("No finished games yet")))
        for e in entries:
            mark = "×" if e["status"] == "abandoned" else ""
            out.append(Item(f"{mark}{game_name(e)}", partial(_detail, e), _day(e.get("finished"))))
        return out


def detail_rows(entry: dict[str, Any]) -> list[str]:
    """One game for a person: result, the players with score (✓ the winner), the mode, dates."""
    record = record_of(entry["game"])
    if record is not None and record.shown is not None:      # the game's own words
        entry = record.shown(entry)
    rows = [game_name(entry), say(entry["result"])]
    if entry["status"] == "abandoned":
        rows.append(_("Abandoned"))
    for p in entry["players"]:
        score = "" if p.get("score") is None else f": {p['score']}"
        name = base.clip(str(p["name"]), base.COLS - 1 - len(score))
        rows.append(f"{'✓' if p.get('winner') else '·'}{name}{score}")
    mode = entry["mode"]
    if mode.get("difficulty"):
        rows.append(_("Level: {}").format(_(str(mode["difficulty"]))))
    if mode.get("expansions"):
        rows.append(_("Modules: {}").format(", ".join(str(x) for x in mode["expansions"])))
    if mode.get("side"):
        rows.append(_("Side: {}").format(_(str(mode["side"]).capitalize())))
    rows += [str(note) for note in mode.get("notes", ())]
    ended = (entry.get("finished") or "")[:16].replace("T", " ")
    rows.append(_("Ended {} (clock not set: date uncertain)").format(ended)
                if "finished" in entry.get("unsynced", ()) else _("Ended {}").format(ended))
    rows.append(_("No. {}").format(entry["id"]))
    return rows


def _detail(entry: dict[str, Any], ctx: Ctx) -> None:
    ctx.push(TextScreen(_("Game"), detail_rows(entry)))


def send_newest(ctx: Ctx) -> None:
    """The newest game as a BG Stats play (one JSON line) over the serial link."""
    from firmware import export
    entries = _entries(ctx, 1)
    if not entries:
        ctx.notify(_("No finished games yet."))
        return
    play = export.bgstats_play(entries[0])
    line = json.dumps({"ok": True, "format": "bgstats", "play": play,
                       "text": json.dumps(play, ensure_ascii=False)}, ensure_ascii=False)
    sent = ctx.send_serial(line)
    if sent == "no link":
        ctx.notify(_("No serial link: start Legatus with --serial PORT."))
    elif sent == "failed":
        ctx.notify(_("The serial link did not take it."))
    else:
        ctx.notify(_("Sent: {}.").format(game_name(entries[0])))


# -- statistics ------------------------------------------------------------------------------------
class StatsMenu(ListScreen):
    """One row per statistics page the games give (their records, firmware/games.py)."""

    title = Said(N_("Statistics"))

    def items(self, ctx: Ctx) -> list[Item]:
        return [Item(_(s.title), partial(_open_statistic, factory=factory))
                for r in records() for s in r.statistics if (factory := screen_of(s.screen)) is not None]


def _open_statistic(ctx: Ctx, factory: Callable[[Ctx], Screen]) -> None:
    ctx.push(factory(ctx))


def crassus_chart(ctx: Ctx) -> Screen:
    return CrassusChart()


def glory_scores(ctx: Ctx) -> Screen:
    return TextScreen(_("Glory scores"), glory_rows(ctx))


def jc_battles(ctx: Ctx) -> Screen:
    return TextScreen(_("JC battles"), jc_rows(ctx))


def _stats(ctx: Ctx) -> dict[str, Any]:
    from firmware import history
    return history.stats(_entries(ctx, None))


def crassus_by_level(st: dict[str, Any]) -> dict[str, tuple[int, int, int]]:
    """difficulty -> (wins, losses, streak), every expansion set together; the streak of the
    set played last at that level."""
    out: dict[str, tuple[int, int, int]] = {}
    for row in st["crassus"].values():
        w, l, s = out.get(row["difficulty"], (0, 0, 0))
        out[row["difficulty"]] = (w + row["wins"], l + row["losses"], s or row["streak"])
    return out


class CrassusChart:
    """Bars of wins (filled) and losses (hollow) against Auto-Crassus per level; A or down
    shows the same per expansion set as text."""

    def __init__(self) -> None:
        self.title = _("vs Auto-Crassus")

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, _("vs Auto-Crassus"), _("W/L"))
        levels = crassus_by_level(_stats(ctx))
        if not levels:
            base.lines(draw, base.wrap(_("No solo game finished yet.")))
            return img
        top = base.TITLE_H + 2
        label_y = base.H - base.LINE
        height = label_y - top - base.LINE - 1           # room for the bars and their numbers
        most = max(max(w, l) for w, l, _s in levels.values()) or 1
        col = base.W // len(LEVELS)
        bar = max(4, (col - 10) // 2)
        for i, level in enumerate(LEVELS):
            w, l, _s = levels.get(level, (0, 0, 0))
            x0 = i * col + (col - 2 * bar - 2) // 2
            for j, (n, filled) in enumerate(((w, True), (l, False))):
                h = round(height * n / most)
                x = x0 + j * (bar + 2)
                y = label_y - 1 - h
                if h:
                    draw.rectangle((x, y, x + bar - 1, label_y - 2), fill=1 if filled else 0, outline=1)
                num = str(n)
                base.put(draw, x + (bar - len(num) * base.CHAR_W) // 2, y - base.LINE, num)
            name = base.clip(_(level), col // base.CHAR_W)
            base.put(draw, i * col + (col - len(name) * base.CHAR_W) // 2, label_y, name)
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        what = intent("row", key)
        if what is Intent.BACK:
            ctx.pop()
        elif what in (Intent.SELECT, Intent.NEXT):
            ctx.push(TextScreen(_("vs Auto-Crassus"), crassus_rows(ctx)))


def _streak(n: int) -> str:
    if n > 0:
        return _("won {} in a row").format(n)
    if n < 0:
        return _("lost {} in a row").format(-n)
    return ""


def crassus_rows(ctx: Ctx) -> list[str]:
    rows = []
    for row in _stats(ctx)["crassus"].values():
        from firmware.screens.caesar.record import expansions_said
        exp = _("base game") if row["expansions"] == "base" else expansions_said(row["expansions"])
        rows.append(f"{_(str(row['difficulty']))}, {exp}:")
        rows.append("  " + _("{} won, {} lost").format(row["wins"], row["losses"]))
        if row["streak"]:
            rows.append("  " + _streak(row["streak"]))
    return rows or [_("No solo game finished yet.")]


def glory_rows(ctx: Ctx) -> list[str]:
    rows = []
    for name, g in _stats(ctx)["glory"].items():
        rows.append(name)
        rows.append("  " + _("best {}, average {}").format(g["best"], g["average"]))
        rows.append("  " + ngettext("{} game", "{} games", g["games"]).format(g["games"]))
    return rows or [_("No Glory game scored yet.")]


def jc_rows(ctx: Ctx) -> list[str]:
    rows = []
    for side, r in _stats(ctx)["jc"].items():
        if not (r["attacker_fought"] or r["defender_fought"]):
            continue
        rows.append(_(side.capitalize()) + ":")
        rows.append("  " + _("attacking {}/{} won").format(r["attacker_won"], r["attacker_fought"]))
        rows.append("  " + _("defending {}/{} won").format(r["defender_won"], r["defender_fought"]))
    return rows or [_("No battle fought yet.")]


# -- the fair draw of the running game --------------------------------------------------------------
def _finished(ctx: Ctx) -> bool:
    """Whether the running session's game is recorded as finished (then its seed may be shown,
    when its record says so: a Julius Caesar battle is a part; its seed waits for the campaign)."""
    view = ctx.view()
    if view is None or not ctx.game_recorded():
        return False
    record = record_of(view["game"])
    return record is None or record.seed_shown is None or record.seed_shown(view)


class FairDrawScreen:
    """The commitment's first 8 hex characters, big enough to photograph; once the game is
    over, the seed (what ``reveal`` answers) to check it with scripts/verify_draws.py."""

    def __init__(self, code: str | None = None) -> None:
        self.code = code
        self.title = _("Fair draw")

    def render(self, ctx: Ctx) -> Image.Image:
        img, draw = base.frame()
        base.title_bar(draw, _("Fair draw"))
        view = ctx.view()
        code = self.code or (view or {}).get("commitment")
        if not code:
            text = _("No secret draw: this game was started with a chosen seed.") if view else _("No game running.")
            base.lines(draw, base.wrap(text))
            return img
        short = str(code)[:8]
        scale = 2 if base.big_width(short, 2) <= base.W - 2 else 1
        x = (base.W - base.big_width(short, scale)) // 2
        base.big(img, x, base.TITLE_H + 1, short, scale)
        if self.code is None and _finished(ctx):
            seed = ctx.run(act.reveal()).get("seed")
            base.text(draw, 1, base.row_y(2) + 4, base.clip(_("Game over; the seed:")))
            base.text(draw, 1, base.row_y(3) + 3, base.clip(str(seed)))
        else:
            base.text(draw, 1, base.row_y(2) + 4, base.clip(_("Photograph it now.")))
            base.text(draw, 1, base.row_y(3) + 3, base.clip(_("Seed at game end.")))
        return img

    def key(self, key: str, ctx: Ctx) -> None:
        if intent("text", key) in (Intent.BACK, Intent.CLOSE):
            ctx.pop()
