"""Caesar!'s typed action builders: the console line of each action (docs/protocol/caesar.md), as
the journal keeps it. Screens act through these."""
from __future__ import annotations

from collections.abc import Sequence

from engine.actions import Line, words

MODULE_OPTIONS = ("poison", "centurions", "border-control")   # the expansions, as options


def _modules(modules: Sequence[str]) -> list[str]:
    return [f"{m}=1" for m in MODULE_OPTIONS if m in modules]


def new_solo(side: str, difficulty: str, modules: Sequence[str] = (), harder: str | None = None,
             tiles_input: str = "digital", bag_input: str = "digital", tiles: str | None = None,
             row: Sequence[str] | None = None) -> Line:
    """A solo game against Auto-Crassus; ``harder``: when the Harder rule applies (S-8);
    ``tiles``: the tile contents remembered; ``row``: his first tokens when his bag is physical."""
    return words("new caesar-solo", f"side={side}", f"difficulty={difficulty}", *_modules(modules),
                 f"harder=1 harder-when={harder}" if harder else "", f"tiles-input={tiles_input}",
                 f"bag-input={bag_input}", f"tiles={tiles}" if tiles else "",
                 f"row={','.join(row)}" if row is not None else "")


def new_duel(modules: Sequence[str] = (), bag_input: str = "digital") -> Line:
    return words("new caesar-duel", *_modules(modules), f"bag-input={bag_input}")


def hand(player: str) -> Line:
    return words("hand", player)


def crassus(tile: str | None = None, draw: Sequence[str] = (), centurions: Sequence[str] = ()) -> Line:
    """Auto-Crassus's turn; with physical tiles and bag: the tile turned up, the tokens he drew and
    the centurions turned up."""
    return words("crassus", f"tile={tile}" if tile else "", f"draw={','.join(draw)}" if draw else "",
                 f"centurion={','.join(centurions)}" if centurions else "")


def reveal_tile() -> Line:
    return Line("reveal-tile")


def decide() -> Line:
    return Line("decide")


def moves() -> Line:
    return Line("moves")


def might(target: str) -> Line:
    """Might (a bonus): flip ``target`` (a space or a province's marker), or ``skip``."""
    return words("might", target)


def centurion(choice: str) -> Line:
    return words("centurion", choice)


def draw(token: str | None = None) -> Line:
    """Your draw: the device's, or the token you drew from your physical bag."""
    return words("draw", token)


def play(space: str, icon: str, here: int, there: int, province: str) -> Line:
    """A token face up on ``space``: ``icon:here/there`` with ``here`` toward ``province``."""
    return Line(f"play {space} {icon}:{here}/{there} {province}")


def play_down(space: str, token: str, bonus: str | None = None) -> Line:
    """A token face down (with the bonus drawn, when the bags are physical)."""
    return words("play", space, token, "down", f"bonus={bonus}" if bonus else "")
