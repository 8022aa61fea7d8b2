"""The screen in step with the game (a model-based checker): random sequences of device keys, undo
(once or several in a row, across rounds and turns, of dice rolls and hidden draws), console lines
from the serial link while a screen is open, restarts (the power cut: the program starts again on
the same state directory) and language switches, in the four games and the Dice & bags tools (a bag
beside each game, the bag and dice sessions, ended and started again). After every step:

- no screen error;
- the screen shown renders as the same screen of a fresh program started on the stored session
  would (no stale figure: scores, odds, markers, whose turn, tiles left, the bag's counts);
- the session in memory is the one stored (what was acknowledged is kept: a restart resumes it);
- the same line on the same state always gives the same result: an undo then the same action
  again never rolls a die again nor draws another hidden tile;
- a text built once from the game (a plain text, table or result screen) is not shown once the game
  changed under it (an undo, a line from the serial link): such a screen follows the game (``stale``).

A screen is "built again" from the arguments it was built with, at the same place on its page
(``UI_ATTRS``), on a fresh program (a second console over a copy of the state directory). Set
IN_STEP_REPORT=1 to print the screens each run visited, IN_STEP_SEEDS=N to play the long runs of
seeds 2..N-1.

The short version runs in the default suite; the long one is ``@pytest.mark.slow``.
"""
from __future__ import annotations

import copy
import functools
import importlib
import inspect
import os
import pkgutil
import random
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware import i18n
from tests.screens import app_with

KEYS = ["up", "down", "left", "right", "press", "a", "a", "a", "b", "down", "right", "b:hold", "a:hold"]

# A screen's own position on its page (not the game's state): what a person did on the screen, kept
# when it is built afresh for the comparison.
UI_ATTRS = ("cursor", "top", "current", "_mark", "step", "page", "scroll", "shown_at", "offset", "index",
            "row", "values", "picked", "chosen", "placed", "among", "value", "seen", "count",
            "sides", "mod", "field", "picking", "pick", "seats", "name", "upper", "col", "faces", "set",
            "last", "marked", "entries", "sign",
            "recalled",        # a form has taken its remembered fields once (figure.NumberForm.recall)
            "fair")            # a new-game form's fair-draw code: the console's secret for the next ``new``,
#                                kept in memory only (a fresh program commits to another one)
# ... and per class, what its maker set on it after building it (caesar/words.py titles a Why page).
UI_ATTRS_OF = {"TextScreen": ("title",), "Snapshot": ("title", "now_only"),
               "SwordHome": ("shown_over",),          # (its rows of a game over were shown: the cursor set on the first)
               "GloryHome": ("due",),                 # (the round's step due it put the cursor on, once)
               "JcDiceEntry": ("block", "rows"),      # (its dice are laid out once, for the block firing)
               "AddScreen": ("kind",), "SideBlocks": ("kind",),   # (a kind's row opens the list of that kind)
               "SetupScreen": ("fields",),            # (a new game's form: the figures set on it)
               "TileEditor": ("slots",),              # (a Caesar! tile's actions being edited, not saved yet)
               "BagEditor": ("typed", "common"),      # (your own bag's counts, not started yet)
               "DiceScreen": ("picked_in",),          # (the roll whose dice are being picked)
               "TokenPicker": ("at",),                # (Caesar!'s token grid: the cell under the cursor)
               # a turn's pages are said again in a new language from its record while it is the
               # last turn (tests/test_screens_caesar.py); an older turn's pages stay as they were
               "TurnScreen": ("pages", "lang")}


# -- screens built again ---------------------------------------------------------------------------
def _screen_classes() -> Iterator[type]:
    import firmware.screens as pkg
    for info in pkgutil.walk_packages(pkg.__path__, "firmware.screens."):
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if inspect.isclass(obj) and obj.__module__ == module.__name__ and "__init__" in vars(obj):
                yield obj
    import firmware.app
    yield firmware.app.NoticesScreen


@pytest.fixture
def built_with(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every screen remembers the arguments it was built with (``_built``), so that it can be
    built again on a fresh program."""
    for cls in set(_screen_classes()):
        original = vars(cls)["__init__"]

        @functools.wraps(original)
        def init(self: Any, *args: Any, __original: Callable[..., None] = original, **kwargs: Any) -> None:
            if "_built" not in vars(self):
                self._built = (args, kwargs)
            __original(self, *args, **kwargs)
        monkeypatch.setattr(cls, "__init__", init)


def rebuilt(screen: Any) -> Any:
    """``screen`` built again from its arguments, at the same place on its page."""
    args, kwargs = vars(screen).get("_built", ((), {}))
    fresh = type(screen)(*args, **kwargs)
    for name in UI_ATTRS + UI_ATTRS_OF.get(type(screen).__name__, ()):
        if name in vars(screen):
            setattr(fresh, name, copy.deepcopy(vars(screen)[name]))
    return fresh


def traced(screen: Any, ctx: Any) -> tuple[list[str], bytes]:
    from firmware.screens import base
    base.TRACE = []
    try:
        img = screen.render(ctx)
        return [t for _x, _y, t, _kind in base.TRACE], img.tobytes()
    finally:
        base.TRACE = None


def _apart(live: Any, twin: Any) -> str:
    """The attributes in which the screen shown and its twin differ (for the failure's message)."""
    a, b = vars(live), vars(twin)
    return ", ".join(f"{k}: {a.get(k)!r:.60} / {b.get(k)!r:.60}" for k in sorted(set(a) | set(b))
                     if not callable(a.get(k)) and repr(a.get(k)) != repr(b.get(k)))


# A text built once from the game when it is shown: once the game changes under it (an undo, a line
# from the serial link) it must have gone (or be a screen that follows the game, ``stale``).
SNAPSHOTS = {"TextScreen", "TableScreen", "ResultScreen"}
KEPT = {"Note", "About", "Log"}        # texts of the device, not of the game's state (and Hardware's pages)


# -- lines from the serial link, per game ----------------------------------------------------------
def _glory_line(rng: random.Random, view: dict[str, Any], console: Any) -> str:
    players = [p["name"] if isinstance(p, dict) else p for p in view.get("players", [])] or ["Jack"]
    p = rng.choice(players)
    hands = console.session.state.get("objectives", {}).get("hands", {}) if console.session is not None else {}
    if hands.get(p) and len(hands[p]) == 3 and rng.random() < 0.3:   # (G-19) a player keeps 2 while the device deals
        return f"keep {p} {','.join(rng.sample(hands[p], 2))}"
    if rng.random() < 0.35:                   # on through the rounds (G-1, G-2)
        return rng.choice(["event", "end-round", f"tax {p} pop={rng.randint(0, 4)}"])
    return rng.choice([f"fame {p} +{rng.randint(1, 9)}", f"fame {p} -{rng.randint(1, 3)}", f"vote {p}",
                       f"medal {p} {rng.choice(['warrior', 'politician', 'merchant', 'priest', 'farmer'])}",
                       f"pick {rng.randint(2, 6)}", f"farm {p}", f"unvote {p}", "state", "fame Nobody +1",
                       f"offer {p}", "deal"])


def _sword_line(rng: random.Random, view: dict[str, Any], console: Any) -> str:
    power = rng.choice(["romans", "gauls", "etruscans", "greeks"])
    return rng.choice([f"vp {power} +{rng.randint(1, 3)}", f"vp {power} -1", f"unrest +{rng.randint(1, 2)}",
                       "unrest -1", "advance", "advance", "naval", f"check {rng.choice(['siege', 'attrition', 'gallic'])}",
                       "consuls", f"desperate {power}", "standings", "roll", "vp nobody +1",
                       f"scoring {power} outside={rng.randint(0, 3)} missing={rng.randint(0, 2)}", f"victory {power}"])


JC_BLOCKS = {"caesar": ["c_caesar", "c_antonius", "c_leg8", "c_leg9", "c_leg10", "c_eq1", "c_aux1", "c_ballista"],
             "pompey": ["p_pompeius", "p_scipio", "p_leg1", "p_leg2", "p_leg3", "p_eq1", "p_elephant", "cleopatra"]}


def _jc_line(rng: random.Random, view: dict[str, Any], console: Any) -> str:
    b = view.get("battle") or {}
    r = rng.random()
    if r < 0.25:                               # the cards of the year (J-18)
        side = rng.choice(["caesar", "pompey"])
        hand = console.request(f"hand {side}").get("hand") or []
        if not hand:
            return rng.choice(["deal", "winter"])
        return f"{rng.choice(['play', 'play', 'discard'])} {side} {rng.choice(hand)}"
    if r < 0.32:
        return rng.choice(["winter", "owner cleopatra caesar", "owner cleopatra pompey", "control Roma caesar",
                           "control Alexandria pompey", "fire c_nobody", "odds", "vp"])
    phase = b.get("phase")
    if phase == "setup":
        if len(b.get("blocks", [])) < 2 or rng.random() < 0.4:
            role = rng.choice(["attacker", "defender"])
            side = b["attacker"] if role == "attacker" else b["defender"]
            return f"add {role} {rng.choice(JC_BLOCKS[side])}"
        return "start"
    if phase == "over" or b.get("winner"):
        return "next-battle"
    return rng.choice(["auto", "auto", "auto", "fight", "pass", "fire", "hit", "retreat"])


def _caesar_line(rng: random.Random, view: dict[str, Any], console: Any) -> str:
    step, turn = view.get("step"), view.get("turn")
    if step == "play" and turn == "human" and rng.random() < 0.8:
        moves = console.request("moves").get("moves") or []
        if moves:
            m = rng.choice(moves)
            return f"play {m['space']} {m['token']} {rng.choice(sorted(m['toward']))}"
    if step == "play" and turn != "human" and rng.random() < 0.8:
        return "crassus"
    if step == "bonus" and rng.random() < 0.8:
        return rng.choice(["might skip", "centurion skip"])
    if step == "draw" and rng.random() < 0.8:
        return "draw"
    return rng.choice(["crassus", "draw", "might skip", "centurion skip", "decide", "play XX-YY a:1/1 XX"])


# Dice & bags: a bag and deck beside any game (``kit``), rolls in any session; the bag and dice
# sessions of their own, ended at times (then a new one is started over the serial link).
KIT = ["kit new items=gold*3,silver*2,bronze cards=ace*2,king*3", "kit draw", "kit draw 2", "kit put gold",
       "kit card", "kit discard ace", "kit discard king", "kit shuffle", "kit reshuffle", "roll 2d6", "roll 3d6+1",
       "reroll 1", "reroll 1,2"]


def _with_kit(line: Callable[[random.Random, dict[str, Any], Any], str]) -> Callable[[random.Random, dict[str, Any], Any], str]:
    def either(rng: random.Random, view: dict[str, Any], console: Any) -> str:
        return rng.choice(KIT) if rng.random() < 0.15 else line(rng, view, console)
    return either


def _bag_line(rng: random.Random, view: dict[str, Any], console: Any) -> str:
    if view.get("ended"):
        return f"new bag items=gold*3,silver*2,bronze cards=ace*2,king*3 seed={rng.randint(1, 9)}"
    return rng.choice(["draw", "draw 2", "put gold", "put silver", "card", "discard ace", "discard king", "shuffle",
                       "reshuffle", "roll 2d6", "reroll 1", "end" if rng.random() < 0.1 else "draw"])


def _dice_line(rng: random.Random, view: dict[str, Any], console: Any) -> str:
    if view.get("ended"):
        return f"new dice seed={rng.randint(1, 9)}"
    return rng.choice(["roll 2d6", "roll 1d20+3", "roll 5d6", "reroll 1", "reroll 1,2", "rolls",
                       "end" if rng.random() < 0.1 else "roll 3d6"])


GAMES: dict[str, tuple[list[list[str]], Callable[[random.Random, dict[str, Any], Any], str]]] = {
    "glory": ([["new glory players=Jack,Henry,Mary seed=3", "fame Jack +4", "vote Mary"],
               ["new glory players=Ваня,Маша,Олекса,Їжак harsh=1 seed=5"] + ["event", "end-round"] * 8,
               ["new glory players=Solo seed=7", "event"],
               ["new glory players=Jack,Олекса seed=4", "deal"],
               ["new glory players=Jack,Henry,Mary truce=1 heroes=1 seed=6", "deal"]], _with_kit(_glory_line)),
    "sword": ([["new sword players=romans,gauls,etruscans,greeks seed=2"],
               ["new sword players=romans,gauls seed=4", "advance", "vp romans +3"]], _with_kit(_sword_line)),
    "jc": ([["new jc-battle attacker=caesar seed=9", "add attacker c_caesar", "add attacker c_leg10",
             "add defender p_pompeius", "add defender p_leg1"],
            ["new jc-battle attacker=pompey dice=physical seed=4", "deal", "add attacker p_leg1",
             "add defender c_leg10", "start"],
            ["new jc-battle seed=6", "deal"],
            # Cleopatra's rule row (J-2, cleopatra=turn); navis beside land blocks (J-8: reserves)
            ["new jc-battle attacker=caesar cleopatra=turn seed=5", "add attacker c_caesar", "add attacker c_nav1",
             "add attacker c_leg10", "add defender p_pompeius", "add defender cleopatra", "add defender p_nav1",
             "add defender p_leg1"]], _with_kit(_jc_line)),
    "caesar": ([["new caesar-solo side=caesar difficulty=normal seed=5"],
                ["new caesar-duel seed=3"],
                ["new caesar-solo side=pompey difficulty=hard poison=1 centurions=1 border-control=1 seed=8"],
                ["new caesar-solo tiles-input=physical crassus-bag=physical human-bag=physical "
                 "row=sword:3/3,ship:4/2,wild:2/2 seed=2"],
                ["new caesar-solo side=pompey bag-input=physical centurions=1 edition=uk "
                 "row=sword:3/3,ship:4/2,wild:2/2 seed=9"]],
               _with_kit(_caesar_line)),
    "bag": ([["new bag items=gold*3,silver*2,bronze cards=ace*2,king*3 seed=3", "draw"]], _bag_line),
    "dice": ([["new dice seed=3", "roll 2d6"]], _dice_line),
}


class Killed(BaseException):
    """The power cut (not an ``Exception``: nothing on screen catches it)."""


# -- the checker -----------------------------------------------------------------------------------
class Checker:
    def __init__(self, game: str, seed: int, root: Path, lang: str = "en") -> None:
        self.rng = random.Random(f"{game}-{seed}")
        self.game = game
        self.root = root
        self.state_dir = root / "state"
        self.state_dir.mkdir()
        setups, self.serial = GAMES[game]
        self.lines = setups[seed % len(setups)]
        self.app = app_with(self.lines, ["a"], self.state_dir, lang=lang)     # the game's home
        self.done: list[str] = []
        self.visited: dict[str, int] = {}
        self.first_seen: dict[int, tuple[Any, str | None]] = {}   # id(screen) -> (screen, state then)

    # the steps
    def key(self) -> None:
        k = self.rng.choice(KEYS)
        self.done.append(k)
        self.app.handle(k)

    def undo(self) -> None:
        n = self.rng.choice([1, 1, 1, 2, 2, 3, 5])
        self.done.append(f"undo x{n}")
        for _ in range(n):
            self.app.handle("b:hold")
            self.app.render()
            self.app.handle("a")
            self.app.render()
            self.app.handle("b")               # the note closes

    def line(self) -> None:
        view = self.app.console.session.view() if self.app.console.session else {}
        text = "undo" if self.rng.random() < 0.2 else self.serial(self.rng, view, self.app.console)
        self.done.append(f"serial {text}")
        self.app.serve_line(text.encode())

    def restart(self) -> None:
        from firmware.app import App
        from firmware.console import Console
        from firmware.store import Store
        self.done.append("restart")
        before = self.app.console.session
        lines, state = (list(before.lines), before.state_json) if before else ([], None)
        self.app.console.close()
        store = Store(self.state_dir)
        self.app = App(Console(store, store.resume()))
        after = self.app.console.session
        assert (list(after.lines), after.state_json) == (lines, state), "a restart lost or changed the game"
        self.app.render()
        self.app.handle("a")                  # resume the game from the main menu

    def crash(self) -> None:
        """The power goes in the middle of what a key does (after its first lines, before the
        next: a move and the draws it owes, a whole battle fought step by step), then the program
        starts again."""
        k = self.rng.randint(0, 3)
        calls = [0]
        run = self.app.run

        def dying(line: Any) -> Any:
            calls[0] += 1
            if calls[0] > k:
                raise Killed
            return run(line)
        self.app.run = dying  # type: ignore[method-assign]
        try:
            for _ in range(5):
                key = self.rng.choice(["a", "a", "a", "right", "down"])
                self.done.append(f"{key} (dies after {k} lines)")
                self.app.handle(key)
                self.app.render()
                top, session = self.app.stack[-1], self.app.console.session     # (a screen shown now is
                self.first_seen.setdefault(id(top), (top, session and session.state_json))   # not new later)
        except Killed:
            self.restart()
            return
        del self.app.run

    def tax(self) -> None:
        """Glory's income phase on the device: Tax on the home (the form opens on whose income is
        due: :meth:`check_tax_form`); the random keys then pay it or not."""
        from firmware.screens.glory.text import _ as glory_text
        home = self.app.stack[-1]
        self.done.append("Tax")
        for _ in range(12):
            items = home.items(self.app)
            if items[min(home.cursor, len(items) - 1)].label == glory_text("Tax"):
                self.app.handle("a")
                return
            self.app.handle("down")
            self.app.render()

    def objectives(self) -> None:
        """Glory's secret objectives on the device (G-19): the home's Deal objectives / Objectives
        row, as the keys press it (the pass screen, a hand, a card returned follow)."""
        home = self.app.stack[-1]
        self.done.append("Objectives")
        for _ in range(16):
            items = home.items(self.app)
            if items[min(home.cursor, len(items) - 1)].key == "objectives":
                self.app.handle("a")
                return
            self.app.handle("down")
            self.app.render()

    def language(self) -> None:
        lang = self.rng.choice(["en", "ru", "uk"])
        self.done.append(f"language {lang}")
        self.app.serve_line(f"settings language={lang}".encode())

    def step(self) -> None:
        r = self.rng.random()
        if self.game == "glory" and r < 0.08 and type(self.app.stack[-1]).__name__ == "GloryHome":
            self.tax() if r < 0.05 else self.objectives()
        elif r < 0.62:
            self.key()
        elif r < 0.70:
            self.undo()
        elif r < 0.92:
            self.line()
        elif r < 0.95:
            self.restart()
        elif r < 0.97:
            self.crash()
        elif not os.environ.get("IN_STEP_NO_LANG"):
            self.language()
        self.app.render()
        self.check()

    # the invariants
    def check_tax_form(self, form: Any) -> None:
        """A Glory tax form just opened by a key is on the player whose income is due (G-1, G-4):
        the first in the round's order without a tax since the round began, as the session's
        effective lines say (whatever undos, serial lines and restarts came between)."""
        session = self.app.console.session
        view = session.view()
        lines = [line.split() for line in session.lines]
        start = max((i for i, words in enumerate(lines) if words[:1] == ["end-round"]), default=-1)
        paid = {words[1].casefold() for words in lines[start + 1:] if words[:1] == ["tax"]}
        due = [p for p in view["order"] or view["players"] if p.casefold() not in paid]
        who = view["players"][form.values()["who"]]
        assert due and who == due[0], f"the tax form opened on {who}, due: {due} after {self.done[-12:]}"

    def check(self) -> None:
        app = self.app
        assert app.errors == 0, f"screen error after {self.done[-12:]}"
        top = app.stack[-1]
        self.visited[type(top).__name__] = self.visited.get(type(top).__name__, 0) + 1
        now = app.console.session.state_json if app.console.session else None
        fresh_screen = id(top) not in self.first_seen
        seen = self.first_seen.setdefault(id(top), (top, now))
        if fresh_screen and type(top).__name__ == "TaxForm" and self.done and self.done[-1] in (*KEYS, "Tax"):
            self.check_tax_form(top)
        kept = {i18n.catalog(lang).gettext(t) for t in KEPT for lang in i18n.LANGUAGES}
        device = len(app.stack) > 1 and type(app.stack[-2]).__name__ == "HardwareScreen"   # (a check's page)
        if type(top).__name__ in SNAPSHOTS and getattr(top, "title", "") not in kept and not device:
            assert seen[1] == now, (f"{type(top).__name__} {getattr(top, 'title', '')!r} shows the game as it was "
                                    f"before {self.done[-12:]}")
        shown = traced(top, app)
        fresh_dir = Path(tempfile.mkdtemp(dir=self.root))
        try:
            shutil.copytree(self.state_dir, fresh_dir, dirs_exist_ok=True, ignore=shutil.ignore_patterns("lock"))
            lang, game = i18n.language(), i18n._game
            from firmware.app import App
            from firmware.console import Console
            from firmware.store import Store
            store = Store(fresh_dir)
            fresh = App(Console(store, store.resume()))
            try:
                live, stored = app.console.session, fresh.console.session
                assert (live is None) == (stored is None)
                if live is not None:
                    assert (list(live.lines), live.state_json) == (list(stored.lines), stored.state_json), \
                        f"the session in memory is not the stored one after {self.done[-12:]}"
                twin = rebuilt(top)
                again = traced(twin, fresh)
            finally:
                fresh.console.close()
                i18n.set_language(lang)
                i18n._game = game
        finally:
            shutil.rmtree(fresh_dir)
        apart = _apart(top, twin)
        assert shown[0] == again[0], (f"{type(top).__name__} shows {shown[0]}, a fresh program {again[0]} "
                                      f"after {self.done[-12:]} ({apart})")
        assert shown[1] == again[1], f"{type(top).__name__}: pixels differ after {self.done[-12:]} ({apart})"


@pytest.fixture
def same_results(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, str], str]:
    """The same line on the same state always gives the same state: an undo then the same action
    again brings back the same dice and the same hidden draw."""
    from firmware.session import Session
    seen: dict[tuple[str, str], str] = {}
    original = Session.commit

    def commit(self: Session, line: str, outcome: Any, new_state_json: str, seq: int = 0) -> None:
        key = (self.state_json, line.strip())
        assert seen.setdefault(key, new_state_json) == new_state_json, f"{line!r} gave another result the second time"
        original(self, line, outcome, new_state_json, seq)
    monkeypatch.setattr(Session, "commit", commit)
    return seen


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _play(game: str, seed: int, steps: int, tmp_path: Path) -> None:
    checker = Checker(game, seed, tmp_path)
    try:
        checker.check()
        for _ in range(steps):
            checker.step()
        if os.environ.get("IN_STEP_REPORT"):
            session = checker.app.console.session
            print(game, seed, "actions", session and len(session.lines), sorted(checker.visited.items()))
    finally:
        checker.app.console.close()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_screen_keeps_in_step(game: str, tmp_path: Path, built_with: None, same_results: dict) -> None:
    _play(game, 1, 40, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, int(os.environ.get("IN_STEP_SEEDS", "10"))))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_screen_keeps_in_step_long(game: str, seed: int, tmp_path: Path, built_with: None,
                                       same_results: dict) -> None:
    _play(game, seed, 250, tmp_path)
