"""Caesar!'s typed action builders: the console line of each action (docs/protocol/caesar.md), as
the journal keeps it. Screens act through these."""
from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Line, words
from engine.caesar.replies import (
    BonusReply,
    CrassusReply,
    DecideReply,
    DrawReply,
    GuideReply,
    HandReply,
    MovesReply,
    PlayReply,
    PreviewReply,
    RevealTileReply,
)
from engine.replies import NewReply

MODULE_OPTIONS = ("poison", "centurions", "border-control")   # the expansions, as options


def _modules(modules: Sequence[str]) -> list[str]:
    return [f"{m}=1" for m in MODULE_OPTIONS if m in modules]


def _harder(harder: bool | str | None) -> str:
    if not harder:
        return ""
    return "harder=1" if harder is True else f"harder=1 harder-when={harder}"


def new_solo(side: str, difficulty: str, modules: Sequence[str] = (), harder: bool | str | None = None,
             tiles_input: str = "digital", bag_input: str = "digital", tiles: str | None = None,
             row: Sequence[str] | None = None, edition: str | None = None) -> Line[NewReply]:
    """A solo game against Auto-Crassus. ``harder`` (S-8): True for the Harder rule as the
    edition plays it, or when it applies (``always``/``control``: given only when the player
    chose otherwise than the edition); ``tiles``: the tile contents remembered; ``row``: his first
    tokens when his bag is physical; ``edition``: the rules edition (``ru``, ``uk``, ``mixed``)."""
    return words("new caesar-solo", f"side={side}", f"difficulty={difficulty}", *_modules(modules),
                 _harder(harder), f"edition={edition}" if edition else "", f"tiles-input={tiles_input}",
                 f"bag-input={bag_input}", f"tiles={tiles}" if tiles else "",
                 f"row={','.join(row)}" if row is not None else "")


def new_duel(modules: Sequence[str] = (), bag_input: str = "digital", edition: str | None = None) -> Line[NewReply]:
    return words("new caesar-duel", *_modules(modules), f"edition={edition}" if edition else "",
                 f"bag-input={bag_input}")


def preview(space: str, token: str, province: str) -> Line[PreviewReply]:
    """What placing ``token`` (``icon:a/b``, ``a`` toward ``province``; ``down``: face down) on
    ``space`` would close (read-only)."""
    return words("preview", space, token, province)


def guide() -> Line[GuideReply]:
    """The physical set-up of the game, step by step (read-only)."""
    return Line("guide")


def hand(player: str) -> Line[HandReply]:
    return words("hand", player)


def crassus(tile: str | None = None, draw: Sequence[str] = (), centurions: Sequence[str] = ()) -> Line[CrassusReply]:
    """Auto-Crassus's turn; with physical tiles and bag: the tile turned up, the tokens he drew and
    the centurions turned up."""
    return words("crassus", f"tile={tile}" if tile else "", f"draw={','.join(draw)}" if draw else "",
                 f"centurion={','.join(centurions)}" if centurions else "")


def reveal_tile() -> Line[RevealTileReply]:
    return Line("reveal-tile")


def decide() -> Line[DecideReply]:
    return Line("decide")


def moves() -> Line[MovesReply]:
    return Line("moves")


def might(target: str) -> Line[BonusReply]:
    """Might (a bonus): flip ``target`` (a space or a province's marker), or ``skip``."""
    return words("might", target)


def centurion(choice: str) -> Line[BonusReply]:
    return words("centurion", choice)


def draw(token: str | None = None) -> Line[DrawReply]:
    """Your draw: the device's, or the token you drew from your physical bag."""
    return words("draw", token)


def play(space: str, icon: str, here: int, there: int, province: str) -> Line[PlayReply]:
    """A token face up on ``space``: ``icon:here/there`` with ``here`` toward ``province``."""
    return Line(f"play {space} {icon}:{here}/{there} {province}")


def play_down(space: str, token: str, bonus: str | None = None) -> Line[PlayReply]:
    """A token face down (with the bonus drawn, when the bags are physical)."""
    return words("play", space, token, "down", f"bonus={bonus}" if bonus else "")
