"""Typed action builders: the console line of an action (the line the journal keeps), built from
typed values. The device's screens act only through these (``Ctx.run`` takes a :data:`Line`), so
a key and the console give the journal the very same lines; the console's parsers read them back.

This module holds the session's own commands (``undo``, ``log``, ``actions``, ``settings``), the
fair draw's (``commit``, ``share``, ``end``, ``reveal``, the ``share=`` option of ``new``), ``export``, the
dice and the bags (engine/kit.py, engine/dice.py); each game has its own in ``engine/<game>/actions.py``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, Literal, TypeVar

from engine.replies import (
    ActionsReply,
    BagReply,
    CommitReply,
    EndReply,
    ExportReply,
    KitReply,
    LogReply,
    NewReply,
    PlayersReply,
    Reply,
    RevealReply,
    RollReply,
    RollsReply,
    SettingsReply,
    ShareReply,
    StateReply,
    UndoReply,
)

R_co = TypeVar("R_co", covariant=True)
R = TypeVar("R")


class Line(str, Generic[R_co]):
    """One console line (without its newline), as a builder made it. ``R_co`` is the TypedDict of
    the response the console gives to it (engine/replies.py, engine/<game>/replies.py), so that
    ``ctx.run(jc_actions.fire(...))`` is typed by construction. At run time it is the line's text
    (a ``str``: the journal gets exactly the text; ``str(line)`` is a plain ``str``)."""

    __slots__ = ()

Contents = Sequence[tuple[str, int]]          # (name, count) of a bag or deck
BagKind = Literal["items", "cards"]
BagCommand = Literal["draw", "card", "put", "discard", "shuffle", "reshuffle"]


def replayed(text: str) -> Line[Reply]:
    """A line read back from a journal (an archived session reopened): run again as it was."""
    return Line(text.strip())


def words(*parts: object) -> Line[Any]:
    """The line of these words, the empty ones left out (a builder's last step; the builder's
    return type says what the console answers to it)."""
    return Line(" ".join(str(p) for p in parts if p != "" and p is not None))


def faces(dice: Sequence[int]) -> str:
    """Die faces as an option value: ``3,5,1``."""
    return ",".join(str(int(d)) for d in dice)


# -- the session -------------------------------------------------------------------------------------
def undo() -> Line[UndoReply]:
    return Line("undo")


def state() -> Line[StateReply]:
    return Line("state")


def log(n: int) -> Line[LogReply]:
    return words("log", n)


def actions(n: int, before: int | None = None) -> Line[ActionsReply]:
    """A page of the session's effective actions, newest first: ``n`` of them (1–500) before
    action ``before`` (default: the newest) — read only."""
    return words("actions", int(n), f"before={int(before)}" if before is not None else "")


def export(fmt: Literal["bgstats", "csv", "draws"], history_id: int | None = None) -> Line[ExportReply]:
    """An exported document of a History game (the newest without ``history_id``)."""
    return words("export", f"format={fmt}", f"id={int(history_id)}" if history_id is not None else "")


# -- the fair draw (docs/fairness.md) ------------------------------------------------------------------
def commit() -> Line[CommitReply]:
    """The commitment of the secret the next ``new`` will use (shown before the players' share)."""
    return Line("commit")


def share(text: str) -> Line[ShareReply]:
    """The players' share, before the first draw (the console checks it: one word, 1–64 printable
    characters)."""
    return words("share", text.strip())


def with_share(line: Line[R], text: str | None) -> Line[R]:
    """A ``new …`` line with the players' share as its ``share=`` option (``text`` None or empty:
    the line as it is, the draws from the committed secret alone). The console checks the share
    (engine/rng.py ``check_share``: one word, no spaces); a screen checks it the same way first."""
    if not text:
        return line
    return Line(f"{line} share={text}")


def end() -> Line[EndReply]:
    """End the session: History files it, nothing more is drawn, the seed may then be shown."""
    return Line("end")


def reveal() -> Line[RevealReply]:
    """The seed, once the game has ended (a game its rules ended is ended by it first)."""
    return Line("reveal")


def settings(key: str, value: str) -> Line[SettingsReply]:
    return Line(f"settings {key}={value}")


# -- dice ------------------------------------------------------------------------------------------
def new_dice() -> Line[NewReply]:
    return Line("new dice")


def roll(count: int, sides: int, modifier: int = 0) -> Line[RollReply]:
    """``roll 3d6+1``."""
    return Line(f"roll {count}d{sides}" + (f"{modifier:+d}" if modifier else ""))


def reroll(positions: Sequence[int]) -> Line[RollReply]:
    """Roll again the dice at ``positions`` (1-based) of the last roll."""
    return words("reroll", faces(positions))


def rolls(n: int) -> Line[RollsReply]:
    return words("rolls", n)


# -- bags and decks ------------------------------------------------------------------------------------
def contents(pairs: Contents) -> str:
    """``gold*3,silver*2,bronze`` (a count of 1 is left out; none at all: the item is left out)."""
    return ",".join(f"{name}*{n}" if n > 1 else name for name, n in pairs if n > 0)


def new_bag(kind: BagKind, pairs: Contents) -> Line[NewReply]:
    """A bag session of ``pairs`` (``items``: a bag; ``cards``: a deck)."""
    return Line(f"new bag {kind}={contents(pairs)}")


def kit_new(kind: BagKind, pairs: Contents) -> Line[KitReply]:
    """A bag or deck beside the running game (its side kit)."""
    return Line(f"kit new {kind}={contents(pairs)}")


def kit_state() -> Line[KitReply]:
    return Line("kit-state")


def bag(command: BagCommand, *names: str, side: bool = False) -> Line[BagReply]:
    """A bag or deck command (``draw``, ``put gold`` …); ``side``: the side kit's (``kit draw``)."""
    return words("kit" if side else "", command, *names)


# -- the players this device has seen (firmware/players.py) ---------------------------------------------
def players() -> Line[PlayersReply]:
    return Line("players")


def forget_player(name: str) -> Line[PlayersReply]:
    return words("players", "forget", name)


def rename_player(old: str, new: str) -> Line[PlayersReply]:
    return words("players", "rename", old, new)


def with_people(line: Line[R], people: Mapping[str, str | None]) -> Line[R]:
    """A ``new …`` line with the person who plays each side (``people=caesar:Anna,pompey:Boris``);
    sides nobody was named for are left out (the line is unchanged when nobody was named)."""
    named = [f"{side}:{name}" for side, name in people.items() if name]
    return words(line, f"people={','.join(named)}" if named else "")
