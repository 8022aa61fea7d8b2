"""Render the real screens to PNG for the README tour: ``python scripts/screenshots.py [OUTDIR]``;
``--game caesar`` renders every screen of one game (its list: ``scripts/shots_<game>.py``) in
English, Russian and Ukrainian, to look at them all.

Each shot is a key sequence played into the App (the same code the device runs) in a throw-away
state directory with fixed seeds, saved 1:1 and 4× enlarged (``*-x4.png``, for reading).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from firmware.app import App  # noqa: E402
from firmware.console import Console  # noqa: E402
from firmware.store import Store  # noqa: E402

# name, console lines to set up, keys to press
SHOTS: list[tuple[str, list[str], list[str]]] = [
    ("menu", [], []),
    ("games", [], ["a"]),
    ("dice", ["new dice seed=3", "roll 3d6+1"], ["a"]),
    ("dice-reroll", ["new dice seed=3", "roll 3d6+1"], ["a", "press", "right", "up"]),
    ("bag", ["new bag items=gold*3,silver*2,bronze cards=legio*4,senator*2 seed=5", "draw", "card"], ["a"]),
    ("bag-draw", ["new bag items=gold*3,silver*2,bronze seed=5"], ["a", "a"]),
    ("undo", ["new dice seed=3", "roll 2d6"], ["b:hold"]),
    ("log", ["new dice seed=3", "roll 2d6", "roll 1d20-2"], ["down", "down", "down", "down", "a"]),
    ("settings", [], ["down", "down", "down", "a"]),
    # the Glory home opens on what the round has due (its event card at the start of a round)
    ("glory", ["new glory players=Jack,Henry,Mary seed=1", "fame Jack +13", "fame Mary +6", "vote Mary", "vote Mary"], ["a"]),
    ("caesar-turn", ["new caesar-solo side=caesar difficulty=normal seed=5"], ["a", "a", "a"]),
    ("caesar-why", ["new caesar-solo side=caesar difficulty=normal seed=5"], ["a", "a", "a", "right"]),
    ("caesar-map", ["new caesar-solo side=caesar difficulty=normal seed=5", "crassus",
                    'position {"control": {"AC": "human", "SY": "crassus", "SD": "none"}, "crassus_row": ["sword:6/0", "wild:2/2", "ship:4/2"]}'],
     ["a", "down", "down", "a", "right"]),
    # his play is shown first (tile, placement), then your move on the map; B goes back to the home
    ("caesar-home", ["new caesar-solo side=caesar difficulty=normal seed=5", "crassus"], ["a", "a", "a", "b"]),
    ("glory-fame", ["new glory players=Jack,Henry,Mary seed=1", "fame Jack +13", "fame Mary +6", "vote Mary", "vote Mary"], ["a", "up", "up", "a"]),
    ("glory-senate", ["new glory players=Jack,Henry,Mary seed=1", "fame Jack +13", "vote Mary", "vote Jack", "vote Mary"], ["a", "up", "a"]),
    ("sword", ["new sword players=romans,gauls,etruscans,greeks seed=2"], ["a"]),
    ("jc", ["new jc-battle attacker=caesar seed=4", "add attacker c_leg10", "add defender p_pompeius"], ["a"]),
    ("jc-odds", ["new jc-battle attacker=caesar seed=4", "add attacker c_leg10", "add attacker c_leg8",
                 "add defender p_pompeius", "add defender p_leg1"], ["a", "down", "down", "down", "a"]),
    # issue 24: the last table sits down by itself (the form opens on the count: A starts it); a known
    # player is picked in two presses from the seat (the fair-draw code box goes with the first key)
    ("glory-new", ["new glory players=Jack,Henry,Mary,Ross seed=1", "end"], ["a", "a", "down"]),
    ("players-pick", ["new glory players=Jack,Henry,Mary,Ross seed=1", "new glory players=Ann,Bob seed=2", "end"],
     ["a", "a", "down", "down", "a"]),
    # issue 24 §2: the score pad's denarii row after round 9, the step shown where the figure is
    ("glory-pad", ["new glory players=Jack,Henry,Mary,Ross seed=1"] + ["event", "end-round"] * 9 +
     ["sheet Jack denarii 12", "sheet Henry denarii 3", "sheet Mary denarii 6", "sheet Ross denarii 10"],
     ["a", "a"] + ["down"] * 12 + ["a", "press"]),
    ("jc-hit-advice", ["new jc-battle attacker=caesar dice=physical seed=4", "add attacker c_leg10 strength=3",
                       "add defender p_scipio strength=1", "add defender rating=B4 strength=1 name=l", "start",
                       "pass p_scipio", "pass l", "fire c_leg10 dice=1,6,6"], ["a", "b"]),   # (b: its roll, read: the battle)
]


def shoot(name: str, setup: list[str], keys: list[str], root: Path, lang: str = "en") -> Image.Image:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp))
        console = Console(store, None)
        console.request(f"settings language={lang}")
        for line in setup:
            response = console.request(line)
            assert response["ok"], (name, line, response)
        app = App(console)
        for key in keys:               # each key after a frame, as on the device (a new-game form
            app.render()               # shows its fair-draw code as it is first drawn)
            app.handle(key)
        img = app.render()
        console.close()
    return img


# The same screens in each language (the README tour shows one row per language).
LANG_SHOTS: list[str] = ["menu", "caesar-turn", "glory-fame", "jc", "players-pick"]


def main(out: Path, game: str | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    if game is not None:       # every screen of one game, in each language (scripts/shots_<game>.py)
        import importlib
        own = importlib.import_module(f"scripts.shots_{game}").SHOTS
        shots = [(f"{name}-{lang}", setup, keys, lang) for lang in ("en", "ru", "uk") for name, setup, keys in own]
    else:
        shots = [(name, setup, keys, "en") for name, setup, keys in SHOTS]
        by_name = {name: (setup, keys) for name, setup, keys in SHOTS}
        shots += [(f"{name}-{lang}", *by_name[name], lang) for lang in ("ru", "uk") for name in LANG_SHOTS]
    for name, setup, keys, lang in shots:
        img = shoot(name, setup, keys, out, lang)
        img.save(out / f"{name}.png")
        img.convert("L").resize((img.width * 4, img.height * 4), Image.Resampling.NEAREST).save(out / f"{name}-x4.png")
        print(out / f"{name}.png")


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", nargs="?", type=Path,
                        default=Path(__file__).resolve().parents[1] / "docs" / "screens",
                        help="where the PNGs go (default: docs/screens)")
    games = sorted(p.stem[len("shots_"):] for p in Path(__file__).resolve().parent.glob("shots_*.py"))
    parser.add_argument("--game", choices=games, help="every screen of this game in en, ru and uk (scripts/shots_<game>.py), "
                                                      "e.g. --game caesar")
    args = parser.parse_args()
    try:
        args.outdir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        parser.error(f"cannot write the pictures to {args.outdir}: {e.strerror}")
    main(args.outdir, args.game)
