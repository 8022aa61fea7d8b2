"""Keys pressed at random on the device, in every game and tool and each language, with the power
cut (kill -9) at random points, lines from the serial link in between and the card refusing writes:
a seeded, reproducible walk through the real App that checks every frame.

    .venv/bin/python scripts/monkey.py [--keys 3000] [--seeds 1] [--lang ru,uk,en] [--setup NAME ...]

Each walk starts a fresh state directory on one set-up (:func:`setups`: every game and the Dice &
bags tools, a campaign's next battle, physical dice and bags, games far on, History and Earlier
games with finished games of every kind, long Cyrillic names, and set-ups near the rarer screens:
:data:`RARE`) and presses random keys (the
joystick, A, B, press, their long presses, KEY3), or takes a row of the list shown as a person
would (down to it, then A). Now and then:

- the language is switched over the serial link (the screens open stay);
- a game's own console line comes from the serial link (tests/test_in_step.py's lines);
- the serial link History's Send writes to is plugged, unplugged, or fails;
- the card refuses writes for a while (full, read-only, an I/O error; ``--no-faults``: never);
- with ``--panel``, the keys go through the device loop onto an SSD1306 panel on an I2C bus, and
  the panel stops answering (at once or in the middle of a frame) and comes back;
- History's draw record is asked over the serial link (``export format=draws``), as the device
  answers it: made by the worker, its reply written once it is made;
- a few keys are pressed before the worker answers what they ask (a slow Pi: «…», «Making the
  draw record…»), each frame checked meanwhile;
- the power is cut (kill -9), between two keys or in the middle of one (after its first console
  lines): the state directory is copied as the card holds it at that instant and a new program
  starts on the copy, without the old one closing anything.

After every step:

- nothing raises out of the App and no screen failed (``App.errors``);
- the frame is not blank, no text leaves the 128×64 panel or lacks a glyph
  (tests/test_no_clipped_text.py's :func:`frame_faults`), and none is cut with '…' (but typed names);
- no console syntax or internal id is shown (scripts/presses/harness.py's ``CONSOLE_SYNTAX``);
- the words shown are the language's: no Latin word on a Russian or Ukrainian screen, no Cyrillic on
  an English one, no letter only the other language writes (ы э ъ ё / і ї є ґ), apart from the names
  people typed (players, bags' items and cards: read from the stored lines and settings) and the
  device's own names (:data:`LATIN_OK`);
- after a power cut the stored session is the one in memory before it (its lines and state), the
  settings, the language and History's rows are kept (nothing acknowledged lost), and the
  restarted program's first frame passes the same checks;
- what History's Send writes on the serial link is one JSON reply line;
- with ``--panel``, the panel holds the frame whenever it answers.

The slow answers (Julius Caesar's chances and advice, History's draw record) are made by the
device's worker (firmware/worker.py, on its own thread, as on the device); the walk's driver waits
for it after each frame that asked it and draws again, so a key meets the screen with its
answers made (but the keys pressed before it answers: it waits for them), and the fair draws'
secrets of the games the keys start come from the walk's seed: a seed is the same walk, frame
for frame, on every machine (:attr:`Walk.trace`), however slow the worker is (``delay``).

A failure prints the set-up, language, seed and the last steps; the same arguments replay it. At
the end, how many walks reached each of the rarer screens (:data:`RARE`), or NOT REACHED.
tests/test_monkey.py walks a few set-ups a few hundred steps in the default suite, and every set-up
in every language many thousands in a ``slow`` test (MONKEY_KEYS, MONKEY_SEEDS).
"""
from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.presses.harness import CONSOLE_SYNTAX  # noqa: E402  (a console command, an internal id)

# the keys of the panel and how often a person presses them (more A and moves than holds)
KEYS = ["up", "down", "left", "right", "press", "a", "a", "a", "b", "b", "right", "down",
        "a:hold", "b:hold", "key3", "key3:hold", "press:hold"]
LANGS = ("ru", "uk", "en")

# Latin words a Russian or Ukrainian screen may show: the device's and the hardware's names, a
# program's command line (Settings ▸ About, the hardware checks)
LATIN_OK = {"Legatus", "legatus", "Adafruit", "Waveshare", "Raspberry", "Pi", "SSD", "SH", "English",
            "serial", "proc", "device-tree", "model", "sim", "state-dir", "dtparam", "i2c_arm", "on",
            "config", "txt", "boot", "firmware", "lgpio", "python", "dev", "ttyGS", "GPIO", "I2C", "OLED",
            "KEY", "USB", "SD", "RAM", "Python", "RPi", "spi", "raspi-config"}
ROMAN = re.compile(r"^[IVXL]+$")                   # a legion's number, a rating's step
ACRONYM = re.compile(r"^[A-Z]{2,4}$")              # a bus, a chip, a card (SPI, GPIO, SD) ...
WORDS_IN_CAPITALS = {"OK", "WARN", "FAIL", "YES", "NO", "ON", "OFF", "END", "UNDO"}     # ... not a word
CODE = re.compile(r"^[0-9a-f]*[a-f][0-9a-f]*$")    # (inside) a fair-draw code in hex
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")     # (a single letter: a key, a die, a rating, a tile)
CYRILLIC_WORD = re.compile(r"[А-Яа-яЁёІіЇїЄєҐґ][А-Яа-яЁёІіЇїЄєҐґ'’-]*[А-Яа-яЁёІіЇїЄєҐґ]")   # (a letter: a tile)
LANGUAGE_NAMES = {"English", "Русский", "Українська"}     # each language's row in its own words
OTHER_ALPHABET = {"ru": set("іїєґІЇЄҐ"), "uk": set("ыэъёЫЭЪЁ")}     # the letters only the other language writes
WORD = re.compile(r"[\w'’-]+")
PATH = re.compile(r"[\w.-]*/[\w./-]+|[\w-]+\.py\b")        # (a path the wrap cut: its end on the next row)
CLOCK = re.compile(r"\b\d\d:\d\d\b")                        # a time of day History shows (the walk's trace)
WAITS = 2000                   # the worker's answers a frame may wait for in turn (then: a failure)


def tests(name: str) -> Any:
    """The module ``tests.<name>`` (its set-ups, lines and checks; untyped: imported by name, as
    scripts/soak.py does)."""
    return importlib.import_module(f"tests.{name}")


def _lines_setup(lines: list[str]) -> Callable[[Callable[[str], dict[str, Any]]], None]:
    def run_all(run: Callable[[str], dict[str, Any]]) -> None:
        for line in lines:
            reply = run(line)
            assert reply["ok"], (line, reply)
    return run_all


def setups() -> dict[str, tuple[Callable[[Callable[[str], dict[str, Any]]], None], Callable[[Any], None] | None, str]]:
    """name -> (console lines run before the walk, the screen opened then, the game whose serial
    lines come in between (tests/test_in_step.py's GAMES))."""
    clip = tests("test_no_clipped_text")
    out: dict[str, Any] = {}
    games = {"caesar": "caesar", "jc": "jc", "glory": "glory", "sword": "sword", "bag": "bag", "dice": "dice"}
    for name, setup in clip.SETUPS.items():
        run = setup if callable(setup) else _lines_setup(list(setup))
        game = next((g for prefix, g in games.items() if name.startswith(prefix)), "dice")
        game = "glory" if name == "long-names" else game
        out[name] = (run, clip.START.get(name), game)
    extra = {
        # Julius Caesar's battle with the dice rolled on the table (J-5: the dice entry)
        "jc-physical": (["new jc-battle attacker=pompey dice=physical seed=4", "deal", "add attacker p_leg1",
                         "add attacker p_pompeius", "add defender c_leg10", "add defender c_caesar", "start"], "jc"),
        # a bag and deck beside a game (the kit's screens over a game's)
        "sword-kit": (["new sword players=romans,gauls seed=4", "advance", "vp romans +3",
                       "kit new items=золото*3,срібло*2 cards=легіон*4,сенатор*2", "kit draw 2"], "sword"),
        "glory-solo": (["new glory players=Ваня seed=7", "event"], "glory"),
        "caesar-physical": (["new caesar-solo tiles-input=physical crassus-bag=physical human-bag=physical "
                             "row=sword:3/3,ship:4/2,wild:2/2 seed=2"], "caesar"),
    }
    for name, (lines, game) in extra.items():
        out[name] = (_lines_setup(lines), None, game)
    # games far on: Sword's later turns, Glory's last rounds, a Caesar! game its rules ended
    out["sword-late"] = (_lines_setup(["new sword players=romans,gauls,etruscans,greeks seed=3", "vp gauls +7"]
                                      + ["advance"] * 24), None, "sword")
    out["glory-late"] = (_lines_setup(["new glory players=Анна,Богдан,Jack seed=5", "fame Анна +20", "deal"]
                                      + ["event", "end-round"] * 8), None, "glory")
    out["caesar-over"] = (clip.caesar_to_the_end, None, "caesar")
    # near the rarer screens (:data:`RARE`): the Sword's round 5 with Desperate Times open (W-12),
    # Glory's score sheet entered after round 9 (G-15), a year of Julius Caesar with no battle on
    # (its winter, J-19), a deck with discards (back in), History's games with their play time
    out["sword-round5"] = (_lines_setup(["new sword players=romans,gauls,greeks seed=6", "vp greeks +2"]
                                        + ["advance"] * 4),
                           _opened("sword", "sword.home.SwordHome", "sword.tracks.DesperateScreen",
                                   then=lambda app, top: top.marked.add("greeks")), "sword")
    out["glory-last"] = (_glory_scored, _opened("glory", "glory.home.GloryHome"), "glory")
    out["jc-winter"] = (_lines_setup(["new jc-battle attacker=pompey seed=6", "deal"]),
                        _opened("jc-battle", "jc.home.JcHome", then=_winter), "jc")
    out["kit-reshuffle"] = (_lines_setup(["new bag cards=legio*3,senator*2,tribunus seed=5", "card", "card", "card",
                                          "discard legio", "discard senator"]),
                            _opened("bag", "kit.bag.KitScreen", row=3), "bag")     # (on «Discards back in»)
    out["history-timed"] = (_timed(clip.finished_games), _longest_played, "dice")
    return out


def _opened(game: str, *screens: str, row: int = 0,
            then: Callable[[Any, Any], None] | None = None) -> Callable[[Any], None]:
    """Opens ``screens`` (``firmware.screens.<module>.<class>``, made with no argument) over the
    main menu when the session is ``game``'s, the last one's cursor on ``row``; then ``then(app,
    that screen)``."""
    def start(app: Any) -> None:
        if app.console.session is None or app.console.session.game.name != game:
            return
        for where in screens:
            module, _dot, name = where.rpartition(".")
            app.push(getattr(importlib.import_module(f"firmware.screens.{module}"), name)())
        app.stack[-1].cursor = row
        if then is not None:
            then(app, app.stack[-1])
    return start


def _longest_played(app: Any) -> None:
    """History, and the detail of its game played longest (its play time in hours and minutes)."""
    from firmware.export_dates import duration_min
    from firmware.screens.history import LISTED, GameScreen, HistoryScreen
    app.push(HistoryScreen())
    timed = [e for e in app.history() or [] if duration_min(dict(e.items())) is not None]
    if timed:
        app.push(GameScreen(max(timed, key=lambda e: duration_min(dict(e.items())) or 0), LISTED))


def _winter(app: Any, _home: Any) -> None:
    """The winter's question (J-19) asked, as the Winter row asks it, and read to its last rows
    (down a row at a time): a long question's A reads on first (docs/keys.md), so the walk's next
    A says yes, as it did before."""
    from firmware.screens.jc.campaign import ask_winter
    ask_winter(app)
    app.render()
    for _row in app.stack[-1].rows:
        app.handle("down")


def _glory_scored(run: Callable[[str], dict[str, Any]]) -> None:
    """A Glory game after its round 9 with the score sheet entered (G-15): its final score."""
    clip = tests("test_no_clipped_text")
    names = ("Анна", "Богдан", "Вікторія", "Ярослав")
    _lines_setup([f"new glory players={','.join(names)} seed=8"] + ["event", "end-round"] * 9)(run)
    sheet = json.dumps(clip.EXAMPLE, ensure_ascii=False)
    for english, cyrillic in zip(("Jack", "Henry", "Mary", "Ross"), names):
        sheet = sheet.replace(f'"{english}"', f'"{cyrillic}"')
    _lines_setup(["score " + sheet])(run)


def _timed(setup: Callable[[Callable[[str], dict[str, Any]]], None]) -> Callable[[Callable[[str], dict[str, Any]]], None]:
    """``setup`` with minutes of play between its lines (firmware/play_time.py's clock set ahead by
    3 to 40 minutes a line, under its idle limit; back after it, which adds no play): History then
    says the games' play time."""
    def run_all(run: Callable[[str], dict[str, Any]]) -> None:
        from firmware import play_time
        real, ahead, steps = play_time._monotonic, [0.0], iter([3, 40, 7, 12, 25] * 200)

        def played(line: str) -> dict[str, Any]:
            ahead[0] += next(steps) * 60
            return run(line)
        play_time._monotonic = lambda: real() + ahead[0]
        try:
            setup(played)
        finally:
            play_time._monotonic = real
    return run_all


def _top(name: str) -> Callable[[Any, list[str]], bool]:
    return lambda app, keyed: type(app.stack[-1]).__name__ == name


def _keyed(pattern: str) -> Callable[[Any, list[str]], bool]:
    line = re.compile(pattern)
    return lambda app, keyed: any(line.match(x) for x in keyed)


def _play_time(app: Any, keyed: list[str]) -> bool:
    from firmware.export_dates import duration_min
    top = app.stack[-1]
    return type(top).__name__ == "GameScreen" and duration_min(dict(top.entry.items())) is not None


# The rarer screens and steps a walk should reach (seen on the panel, or a console line a key made):
# name -> (the check after a step, given the App and the lines the step's keys ran; the set-up
# that starts near it)
RARE: dict[str, tuple[Callable[[Any, list[str]], bool], str]] = {
    "sword: Desperate Times in round 5, played when? (W-12)": (_top("DesperateWhen"), "sword-round5"),
    "glory: the final score (G-15)": (_top("ScoreResult"), "glory-last"),
    "jc: a winter (J-19)": (_keyed(r"winter\b"), "jc-winter"),
    "kit: the discards back in the deck": (_keyed(r"(kit )?reshuffle\b"), "kit-reshuffle"),
    "history: a game's detail with its play time": (_play_time, "history-timed"),
}


@dataclass
class Failure(Exception):
    setup: str
    lang: str
    seed: int
    step: int
    what: str
    done: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (f"{self.setup} {self.lang} seed={self.seed} step {self.step}: {self.what}\n"
                f"  the last steps: {self.done[-16:]}")


def typed_names(app: Any) -> set[str]:
    """Every word of the names people typed or the set-up named, as stored: the session's lines
    (players, items, cards), the settings (presets, the players' list), the players table; and
    those of a bag or deck being made and a name being typed."""
    words: set[str] = set()
    db = app.console.store.db
    texts = [r[0] for r in db.execute("SELECT line FROM actions")]
    texts += [r[0] for r in db.execute("SELECT value FROM settings")]
    texts += [r[0] for r in db.execute("SELECT header FROM sessions")]
    for table in ("players",):
        try:
            texts += [" ".join(map(str, r)) for r in db.execute(f"SELECT * FROM {table}")]  # noqa: S608
        except Exception:  # noqa: BLE001 - an older schema without it
            pass
    for screen in app.stack:     # a bag or deck being made, a name being typed, players chosen (not stored yet)
        texts += [str(e[0]) for e in getattr(screen, "entries", None) or [] if isinstance(e, list) and e]
        # (a bag's typed names keep their rows at a count of 0, which ``entries`` leaves out)
        texts += [str(e[0]) for e in getattr(screen, "typed", None) or [] if isinstance(e, list) and e]
        if type(screen).__name__ == "TypeScreen":
            texts += [screen.name, screen.initial]
        share = getattr(getattr(screen, "fair", None), "text", None)      # the players' share of a fair draw
        texts += [share] if isinstance(share, str) else []
        for holder in (screen, getattr(screen, "seats", None)):
            names = getattr(holder, "names", None)
            texts += [n for n in names if isinstance(n, str)] if isinstance(names, list) else []
    for t in texts:
        words.update(WORD.findall(t))
    return words


def _a_name(word: str, names: set[str]) -> bool:
    """``word`` is (a part of) a typed name's word: a name cut with '…' shows its start, a name
    being typed ends with the letters typed so far."""
    return any(word in n for n in names)


def foreign_words(texts: list[tuple[int, int, str, str]], lang: str, names: Callable[[], set[str]]) -> list[str]:
    """The words of the frame's texts that are not ``lang``'s (see the module's docstring)."""
    out: list[str] = []
    known: set[str] | None = None
    for _x, _y, full, _kind in texts:
        if full.strip() in LANGUAGE_NAMES:
            continue
        text = PATH.sub(" ", full)                    # a file a person runs on a computer (the fair draw's check)
        if lang == "en":
            suspects = CYRILLIC_WORD.findall(text)
        else:
            suspects = [w for w in LATIN_WORD.findall(text) if w not in LATIN_OK and not ROMAN.match(w)
                        and not (ACRONYM.match(w) and w not in WORDS_IN_CAPITALS)
                        and not (CODE.match(w) and re.search(r"[0-9a-f]{8}", text))]
            suspects += [w for w in CYRILLIC_WORD.findall(text) if set(w) & OTHER_ALPHABET[lang]]
        for w in suspects:
            w = w.strip("'’-")
            if not w:
                continue
            if known is None:
                known = names()
            if not _a_name(w, known):
                out.append(f"{w!r} in {full!r}")
    return out


def _new_program() -> None:
    """What a program starting anew has not yet: the answers Julius Caesar's screens keep from
    the worker (firmware/screens/jc/odds.py; a walk's own, asked again: the worker is met)."""
    from firmware.screens.jc import odds
    odds._CACHE.clear()


class Walk:
    """One walk: a fresh state directory, the set-up, then ``steps`` random steps."""

    def __init__(self, setup: str, lang: str, seed: int, root: Path, card: Any = None,
                 cut: list[str] | None = None, board: Any = None, delay: float = 0.0) -> None:
        app_with = tests("screens").app_with
        self.setup, self.lang, self.seed, self.root = setup, lang, seed, root
        self.card = card                # the card's faults (tests/test_random_faults.py's Card), or None
        self.rng = random.Random(f"monkey-{setup}-{lang}-{seed}")
        run, start, self.game = setups()[setup]
        self.trace: list[tuple[str, ...]] = []     # each frame checked: its screen and texts (:meth:`check`)
        self.state = root / "state-0"
        self.worker = self._worker(delay)
        _new_program()
        self.app = app_with([], [], self.state, lang=lang)
        self.restarts = 0
        self.board = board              # the I2C bus with the panel (tests/test_hw_hotplug.py's Board), or None
        self.loop: Any = None
        self.clock: Any = tests("test_hw_hotplug").Clock()     # the loop's clock (a panel's retries)
        self.link_state = "none"        # the serial link for History's Send: none, up, failing
        self.sent = 0                   # the lines History's Send wrote on it
        self.cut = cut if cut is not None else []    # the texts cut with '…' (:func:`cuts_fail`)
        run(self._run)
        self.app._view_stale = True
        self.app.worker = self.worker
        if start is not None:
            start(self.app)
        self._loop()
        self.done: list[str] = []
        self.step_no = 0
        self.screens: dict[str, int] = {}
        self.sights: set[str] = set()       # the :data:`RARE` reached
        self.check()

    def _run(self, line: str) -> dict[str, Any]:
        return self.app.console.request(line)

    # -- the worker ---------------------------------------------------------------------------------
    def _worker(self, delay: float) -> Any:
        """The device's worker (its thread, its idle task: firmware/device.py), each job begun
        ``delay`` s late (a slower machine: the walk is the same, :func:`walk`); what it is asked
        is counted (:meth:`_drawn`)."""
        from engine.jc.odds import finish as jc_tables
        from firmware.worker import Worker
        self._woken = threading.Event()
        self._asked = 0
        self._free = threading.Event()         # (cleared: the jobs wait, :meth:`held`)
        self._free.set()
        worker = Worker(self._woken.set, idle=(jc_tables,))
        submit = worker.submit

        def counted(key: Any, job: Callable[[], Any], group: Any = None) -> None:
            def late() -> Any:
                self._free.wait()
                if delay:
                    time.sleep(delay)
                return job()
            self._asked += 1
            submit(key, late, group)
        worker.submit = counted  # type: ignore[method-assign]
        return worker

    def _idle(self) -> None:
        """Until the worker has made everything asked (and run its idle task)."""
        while self.worker.busy():
            self._woken.wait(0.002)
            self._woken.clear()

    def _drawn(self, draw: Callable[[], Any]) -> Any:
        """``draw()``, again while it asks the worker (once it is done: the device draws again as
        each answer comes) or takes its own page off (a page waiting for the worker, the draw
        record, goes once it is sent): the frame a key meets, the same however long the worker takes."""
        for _ in range(WAITS):
            asked, top = self._asked, self.app.stack[-1]
            out = draw()
            if self._asked == asked and self.app.stack[-1] is top:
                return out
            self._idle()
        raise self.fail(f"the frame keeps asking the worker ({WAITS} times) on {type(self.app.stack[-1]).__name__}")

    def held(self) -> None:
        """Keys pressed while the worker is still at it (a slow Pi): what they ask is made only
        after them; each frame meanwhile («…», «Making the draw record…») is checked."""
        keys = [self.rng.choice(KEYS) for _ in range(self.rng.randint(1, 3))]
        self.done.append(f"before the worker answers: {' '.join(keys)}")
        self._free.clear()
        try:
            for key in keys:
                self.press(key)
                self.check(settle=False)
        finally:
            self._free.set()

    def fail(self, what: str) -> Failure:
        return Failure(self.setup, self.lang, self.seed, self.step_no, what, self.done)

    # -- the steps ----------------------------------------------------------------------------------
    def step(self) -> None:
        self.step_no += 1
        r = self.rng.random()
        session = self.app.console.session
        ran = len(session.lines) if session is not None else 0
        try:
            if r < 0.02:
                self.language()
            elif r < 0.07:
                self.serial()
            elif r < 0.08:
                self.kill()
            elif r < 0.085:
                self.kill_in_a_key()
            elif r < 0.10 and self.card is not None:
                self.storage()
            elif r < 0.11:
                self.link()
            elif r < 0.13 and self.board is not None:
                self.panel()
            elif 0.13 <= r < 0.145:
                self.held()
            elif r < 0.40:
                self.pick()
            else:
                key = self.rng.choice(KEYS)
                self.done.append(key)
                self.press(key)
        except Failure:
            raise
        except Exception:  # noqa: BLE001 - the failure is the report
            raise self.fail("raised out of the App:\n" + traceback.format_exc()) from None
        self.check()
        keyed = list(session.lines[ran:]) if session is not None and session is self.app.console.session \
            and r >= 0.13 else []                          # (a line from the serial link is no key's)
        self.sights.update(name for name, (seen, _near) in RARE.items() if seen(self.app, keyed))

    def pick(self) -> None:
        """A row of the list shown, at random, taken as a person would: down or up to it, then A
        (deeper than keys at random, which B keeps pulling back)."""
        top = self.app.stack[-1]
        items = getattr(top, "items", None)
        try:
            rows = len(items(self.app)) if callable(items) and self.app.message is None else 0
        except Exception:  # noqa: BLE001 - a list that cannot say its rows: a key instead
            rows = 0
        if not rows:
            key = self.rng.choice(KEYS)
            self.done.append(key)
            self.press(key)
            return
        to, at = self.rng.randrange(rows), getattr(top, "cursor", 0)
        keys = ["down" if to > at else "up"] * abs(to - at) + [self.rng.choice(["a", "a", "a", "a:hold", "right"])]
        self.done.append(f"row {to}: {' '.join(keys)}")
        for key in keys:
            self.press(key)
            if self.app.stack[-1] is not top:
                break
            self._drawn(self.app.render)

    def press(self, key: str) -> None:
        """A key, through the device loop onto the panel when there is one (``--panel``)."""
        if self.loop is not None:
            self.loop.handle(("key", key))
        else:
            self.app.handle(key)

    def _loop(self) -> None:
        """The device loop drawing on an SSD1306 panel on an I2C bus that can be unplugged
        (tests/test_hw_hotplug.py's Board)."""
        if self.board is None:
            return
        from firmware.device import Loop
        from firmware.hardware import PanelOutput
        from hw.config import DisplayConfig
        from hw.display import open_display
        cfg = DisplayConfig()
        self.out = PanelOutput(lambda: open_display(cfg), device=None, error="not yet", clock=self.clock)
        self.loop = Loop(self.app, self.out, clock=self.clock, parts=self.out)
        self.loop.poll_parts()
        self.loop.redraw()

    def panel(self) -> None:
        """The panel stops answering (at once, or in the middle of a frame drawn later), or comes back."""
        from firmware.hardware import PanelOutput
        board = self.board
        assert board is not None and self.loop is not None
        if board.plugged:
            after = self.rng.choice([0, 0, 1, 3, 8])
            board.unplug(after)
            self.done.append(f"panel off after {after} transfers")
        else:
            board.plug()
            self.done.append("panel back")
            self.clock.t += max(PanelOutput.RETRY, PanelOutput.PROBE)
            self.loop.poll_parts()

    def link(self) -> None:
        """The serial link (History's Send, the draws' record): plugged, unplugged, or failing."""
        self.link_state = self.rng.choice(["none", "up", "failing"])
        self.done.append(f"serial link {self.link_state}")
        self._plug()

    def _plug(self) -> None:
        def write(data: bytes) -> None:
            if self.link_state == "failing":
                raise OSError(5, "Input/output error")
            text = data.decode("utf-8")
            if not text.endswith("\n") or "\n" in text[:-1]:
                raise self.fail(f"the serial link was sent other than one line: {text[:80]!r}")
            reply = json.loads(text)
            if not isinstance(reply, dict) or "ok" not in reply:
                raise self.fail(f"the serial link was sent a line that is no reply: {text[:80]!r}")
            self.sent += 1
        self.app.console.serial_out = None if self.link_state == "none" else write

    def storage(self) -> None:
        """The card refuses every write (full, read-only, an I/O error: at any write or at the
        commit) from now on, or takes them again."""
        card = self.card
        assert card is not None
        if card.fault is None:
            card.fault = self.rng.choice(["ENOSPC", "EROFS", "EIO"])
            card.where = self.rng.choice(["any", "commit"])
            self.done.append(f"card {card.fault} at {card.where}")
        else:
            card.fault = None
            self.done.append("card back")

    def language(self) -> None:
        lang = self.rng.choice(LANGS)
        self.done.append(f"serial settings language={lang}")
        self.serve(f"settings language={lang}".encode())

    def serial(self) -> None:
        GAMES = tests("test_in_step").GAMES
        session = self.app.console.session
        view = session.view() if session is not None else {}
        if self.rng.random() < 0.15:          # History's draw record (a game's, or the one in play)
            ids = [e.get("id") for e in self.app.history() or []]
            text = "export format=draws" + (f" id={self.rng.choice(ids)}" if ids and self.rng.random() < 0.7 else "")
        else:
            text = GAMES[self.game][1](self.rng, view, self.app.console)
        self.done.append(f"serial {text}")
        self.serve(text.encode())

    def serve(self, raw: bytes) -> str | None:
        """A line from the serial link, as the device loop answers it: one the worker makes
        (the draw record) once it is made."""
        later = self.app.line_off(raw)
        if later is None:
            return self.app.serve_line(raw)
        for _ in range(WAITS):
            response = self.app.answer_off(later)
            if response is not None:
                if "\n" in response or not isinstance(json.loads(response), dict):
                    raise self.fail(f"the serial link's answer is not one reply line: {response[:80]!r}")
                return response
            self._idle()
        raise self.fail(f"the serial line {later!r} was never answered")

    def kill(self) -> None:
        """The power cut between two keys: the card as it is now, a new program on it; the old one
        is left as it is."""
        self.done.append("kill -9")
        self._restart(self._card_now())

    def kill_in_a_key(self) -> None:
        """The power cut in the middle of what a key does: after its ``k``-th console line (a move
        and the draws it owes, a battle fought step by step, a setting and the game it starts), the
        card as it is then; the key goes on in the old program, which is then dropped."""
        k = self.rng.randint(1, 3)
        key = self.rng.choice(["a", "a", "right", "down", "key3", "press"])
        self.done.append(f"{key}, kill -9 after its line {k}")
        app, run, calls = self.app, self.app.run, [0]
        card: list[Any] = []

        def cut(line: Any) -> Any:
            reply = run(line)
            calls[0] += 1
            if calls[0] == k:
                card.append(self._card_now())
            return reply
        app.run = cut
        try:
            self.press(key)
        finally:
            del app.run
        if card:
            self._restart(card[0])

    def _card_now(self) -> tuple[Path, Any, Any, dict[str, str], str]:
        """A copy of the state directory as the card holds it now, and what it must give back."""
        from firmware import i18n
        app = self.app
        session = app.console.session
        before = (list(session.lines), session.state_json) if session is not None else None
        history = [(e.get("game"), e.get("seed"), e.get("ended")) for e in app.history() or []]
        self.restarts += 1
        copy = self.root / f"state-{self.restarts}"
        shutil.copytree(self.state, copy, ignore=shutil.ignore_patterns("lock"))
        return copy, before, history, dict(app.settings), i18n.language()

    def _restart(self, card: tuple[Path, Any, Any, dict[str, str], str]) -> None:
        """A new program on the card ``card`` (:meth:`_card_now`): it has kept everything."""
        from firmware import i18n
        from firmware.app import App
        from firmware.console import Console
        from firmware.store import Store
        copy, before, history, settings, lang = card
        old = self.app
        _new_program()
        store = Store(copy)
        self.app = App(Console(store, store.resume()))
        self.app.worker = self.worker          # (the walk's one worker: its answers are keyed by the game's state)
        old.console.close()
        self.state = copy
        self._plug()
        self._loop()
        now = self.app.console.session
        after = (list(now.lines), now.state_json) if now is not None else None
        if after != before:
            raise self.fail(f"the power cut changed the session: {before and before[0][-3:]} -> {after and after[0][-3:]}")
        again = [(e.get("game"), e.get("seed"), e.get("ended")) for e in self.app.history() or []]
        if again != history:
            raise self.fail(f"the power cut changed History: {history[:3]} -> {again[:3]}")
        if self.app.settings != settings:
            changed = {k: (settings.get(k), self.app.settings.get(k))
                       for k in set(settings) | set(self.app.settings) if settings.get(k) != self.app.settings.get(k)}
            raise self.fail(f"the power cut changed the settings (before, after): {changed}")
        if i18n.language() != lang:
            raise self.fail(f"the power cut changed the language: {lang} -> {i18n.language()}")

    # -- the checks ------------------------------------------------------------------------------
    def check(self, settle: bool = True) -> None:
        """The checks of the frame (``settle``: once the worker has answered what it asks)."""
        from firmware import i18n
        from firmware.screens import base
        frame_faults = tests("test_no_clipped_text").frame_faults
        app = self.app
        self.lang_now = i18n.language()
        if app.errors:
            raise self.fail(f"a screen failed ({app.errors} errors) on {[type(s).__name__ for s in app.stack]}")
        def draw() -> Any:
            return base.traced(app.render)
        img, texts = self._drawn(draw) if settle else draw()     # (a page waiting for the worker may go)
        where = type(app.stack[-1]).__name__
        self.screens[where] = self.screens.get(where, 0) + 1
        name = self.root.name
        self.trace.append((where, *(CLOCK.sub("hh:mm", t.replace(name, "tmp")) for _x, _y, t, _k in texts)))
        if self.loop is not None:
            self.loop.redraw()
            if self.board.plugged and self.out.connected and not self.loop.blanked \
                    and self.board.ctl.panel().convert("1").tobytes() != img.convert("1").tobytes():
                raise self.fail(f"the panel does not hold the frame of {where}")
        if img.getbbox() is None and where != "PatternScreen":      # (the test pattern's black page)
            raise self.fail(f"a blank frame on {where}")
        faults = frame_faults(app)
        if faults:
            raise self.fail(f"{sorted(faults)}")
        if self.cut:
            raise self.fail(f"a text cut with '…' on {where}: {self.cut}")
        commands = "HardwareScreen" in [type(s).__name__ for s in app.stack[:-1]]    # a check's fix: commands
        syntax = [] if commands else [t for _x, _y, t, _k in texts if CONSOLE_SYNTAX.search(t)]
        if syntax:
            raise self.fail(f"the console's words on {where} ({app.message and 'a notice'}): {syntax}")
        foreign = [] if commands else foreign_words(texts, self.lang_now, lambda: typed_names(app))
        if foreign:
            raise self.fail(f"not {self.lang_now} on {where} ({app.message and 'a notice'}): {foreign}")

    def close(self) -> None:
        self.app.console.close()


@contextmanager
def faulty_card(root: Path) -> Iterator[Any]:
    """Every connection opened on a database under ``root`` goes through a card whose writes fail
    while its ``fault`` is set (tests/test_random_faults.py's Card and FaultyDb)."""
    from firmware.store.connection import Connection
    faults = tests("test_random_faults")
    Card, FaultyDb = faults.Card, faults.FaultyDb
    card = Card()
    original = Connection._open_file

    def open_file(self: Connection, path: Path) -> Any:
        db = original(self, path)
        return FaultyDb(db, card) if Path(path).resolve().is_relative_to(root.resolve()) else db
    Connection._open_file = open_file  # type: ignore[method-assign]
    try:
        yield card
    finally:
        Connection._open_file = original  # type: ignore[method-assign]
        card.fault = None


# cuts found and reported, not fixed here (another helper's screens): call site -> the text cut
KNOWN_CUTS = {
    # Julius Caesar's «Who takes the hit?» rows in English: «Equitat… 1 B2 >99.9%» (the block's
    # name, its rating and the chance do not fit one row: the word is cut, its number kept; seed 8,
    # jc-next-battle, uk → en)
    "firmware/screens/jc/words.py:191": "",
}


@contextmanager
def cuts_fail() -> Iterator[list[str]]:
    """Every text a screen cuts with '…' (``base.clip``; a typed name's ``clip_name`` is not
    counted), listed with its language, width and the screen's file and line."""
    from firmware import i18n
    from firmware.screens import base
    caller = tests("test_no_clipped_text").caller
    cut: list[str] = []
    clip = base.clip

    def recording(text: str, width: int = base.COLS) -> str:
        out = clip(text, width)
        where = caller()
        if out != text and not (where in KNOWN_CUTS and text.startswith(KNOWN_CUTS[where])):
            cut.append(f"{i18n.language()} w={width} {text!r} ({where})")
        return out
    base.clip = recording
    try:
        yield cut
    finally:
        base.clip = clip


@contextmanager
def i2c_board() -> Iterator[Any]:
    """smbus2's bus is an I2C bus with an SSD1306 panel that can be unplugged (tests/test_hw_hotplug.py)."""
    import smbus2
    board = tests("test_hw_hotplug").Board()
    original = smbus2.SMBus
    setattr(smbus2, "SMBus", board.SMBus)  # noqa: B010 - (a class: mypy refuses an assignment)
    try:
        yield board
    finally:
        setattr(smbus2, "SMBus", original)  # noqa: B010


@contextmanager
def seeded_secrets(seed: str) -> Iterator[None]:
    """The secrets of the games the keys start (their fair draws' seeds), and of the dice rolled
    outside a game, drawn from ``seed`` instead of the system's randomness: the same walk rolls
    the same dice."""
    from firmware import console_session
    rng, fresh = random.Random(seed), console_session._fresh_seed
    console_session._fresh_seed = lambda: rng.getrandbits(64)
    try:
        yield
    finally:
        console_session._fresh_seed = fresh


def walk(setup: str, lang: str, seed: int, steps: int, faults: bool = True, panel: bool = False,
         delay: float = 0.0) -> Walk:
    """One walk of ``steps`` steps (with the card's faults: ``faults``; through the device loop
    onto a panel that can be unplugged: ``panel``; each of the worker's jobs begun ``delay`` s
    late); raises :class:`Failure` at the first broken check."""
    from firmware import i18n
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        card = stack.enter_context(faulty_card(Path(tmp))) if faults else None
        board = stack.enter_context(i2c_board()) if panel else None
        stack.enter_context(seeded_secrets(f"monkey-{setup}-{lang}-{seed}-secrets"))
        w = Walk(setup, lang, seed, Path(tmp), card, stack.enter_context(cuts_fail()), board, delay)
        try:
            for _ in range(steps):
                w.step()
        finally:
            w.close()
            i18n.set_language("en")
    return w


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keys", type=int, default=3000, help="steps of each walk")
    ap.add_argument("--seeds", type=int, default=1, help="walks per set-up and language (seeds FROM..FROM+N-1)")
    ap.add_argument("--from", dest="first", type=int, default=1, help="the first seed")
    ap.add_argument("--lang", default=",".join(LANGS))
    ap.add_argument("--setup", action="append", help="only these set-ups (default: all)")
    ap.add_argument("--no-faults", action="store_true", help="the card never refuses a write")
    ap.add_argument("--panel", action="store_true", help="keys through the device loop onto an I2C panel that comes and goes")
    ap.add_argument("--keep-going", action="store_true", help="report every failing walk, not only the first")
    args = ap.parse_args()
    names = args.setup or list(setups())
    failed = 0
    reached = {name: 0 for name in RARE}
    for seed in range(args.first, args.first + args.seeds):
        for lang in args.lang.split(","):
            for name in names:
                try:
                    w = walk(name, lang, seed, args.keys, not args.no_faults, args.panel)
                except Failure as f:
                    failed += 1
                    print("FAIL", f, flush=True)
                    if not args.keep_going:
                        return 1
                    continue
                print(f"ok {name} {lang} seed={seed}: {args.keys} steps, {w.restarts} power cuts, "
                      f"{len(w.screens)} screens", flush=True)
                for sight in w.sights:
                    reached[sight] += 1
    for sight, walks in reached.items():          # (how often the rarer screens were reached)
        print(f"{'reached' if walks else 'NOT REACHED'}: {sight} ({walks} walks)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
