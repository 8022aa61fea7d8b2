"""The games as plug-ins (issue 22 item 3): firmware/ reads everything game-specific from one record
per game (firmware/games.py), so a game added in its own package plus one registration line is
listed, resumed, said in its own words and kept in History — checked here with a stand-in record
in place of the Sword of Rome's."""
from __future__ import annotations

import sys
import types

import pytest

from engine import registry
from engine.text import Msg
from firmware import games, history, i18n
from firmware.games import GameRecord, player, record_of, records


def test_every_session_game_of_the_engine_has_exactly_one_record():
    owners = {}
    for record in records():
        for session in record.sessions:
            assert session not in owners, (session, owners.get(session), record.ident)
            owners[session] = record.ident
    assert set(owners) == set(registry.GAMES)
    for record in records():
        assert record.opener() is not None, record.ident                 # its screens load
        assert not record.undone or record.follower() is not None, record.ident    # what follows an undo loads
        assert record.domain in i18n.game_domains() + i18n.SHARED_DOMAINS


def test_firmware_holds_no_game_switch():
    from scripts.structure import game_switches
    assert game_switches() == []


@pytest.fixture
def stand_in(monkeypatch):
    """A record called "Legions" playing the ``sword`` sessions, registered in place of the Sword's."""
    opened = []
    module = types.ModuleType("tests_stand_in_game")

    def open_game(ctx):
        opened.append(ctx)

    def finished(game, view, command, fields):
        return [("game", {"mode": {"kind": "table"}, "players": [player("Rome", 9, True)],
                          "result": Msg("Legions won.")})] if view.get("finished") else []

    module.open_game = open_game
    module.RECORD = GameRecord("legions", "Legions", ("sword",), "tests_stand_in_game:open_game", domain="glory",
                               box_name="Legions of Rome", short=lambda e: "Legions", finished=finished,
                               players=lambda g, v: ["Rome", "Carthage"])
    monkeypatch.setitem(sys.modules, "tests_stand_in_game", module)
    monkeypatch.setattr(games, "REGISTERED", tuple(r if "sword" not in r else "tests_stand_in_game:RECORD"
                                                   for r in games.REGISTERED))
    games.records.cache_clear()
    i18n.game_domains.cache_clear()
    yield opened
    monkeypatch.undo()                      # the real records back before anything reads them again
    games.records.cache_clear()
    i18n.game_domains.cache_clear()
    i18n.set_game(None)


def test_a_game_registered_in_one_line_is_listed_opened_and_said_in_its_words(stand_in):
    from firmware.screens.menu import GamesMenu, MainMenu
    from tests.fakectx import FakeCtx
    assert record_of("sword").ident == "legions"
    ctx = FakeCtx().open(GamesMenu())
    labels = [i.label for i in ctx.top.items(ctx)]
    assert "Legions" in labels and "Sword of Rome" not in labels
    ctx.top.cursor = labels.index("Legions")
    ctx.press("a")
    assert stand_in == [ctx]                                             # its own screens open it
    ctx = FakeCtx("new sword players=romans,gauls seed=2").open(MainMenu())
    assert ctx.top.items(ctx)[0].label == "▶ Legions"
    i18n.set_game("sword")
    assert i18n._game == "glory"                                         # the domain its record names


def test_history_keeps_what_the_record_says(stand_in, console):
    assert console.request("new sword players=romans,gauls seed=2")["ok"]
    assert console.request("new dice")["ok"]                             # abandoned: its record's players
    entry = history.games(console.store.db, 1)[0]
    assert entry["status"] == "abandoned" and entry["name"] == "Legions of Rome"
    assert [p["name"] for p in entry["players"]] == ["Rome", "Carthage"]
    assert history.finished_parts("sword", {"finished": True})[0][1]["result"] == "Legions won."
    assert history.finished_parts("dice", {"finished": True}) == []       # a tool is never recorded


def test_the_games_menu_loads_a_games_screens_only_when_it_is_chosen(tmp_path):
    """The Games menu imported every game's screens to draw its list (26 ms here, 0.4 s on a Pi at
    its first opening), the main menu the running game's for its Resume row (the start's first
    frame); now a game's when it is chosen, and a game whose screens are not there
    still says "soon" (the stand-in test below covers the one that does not load)."""
    import subprocess
    probe = (
        "import sys\n"
        "from tests.screens import app_with\n"
        "from pathlib import Path\n"
        "app = app_with([], ['a'], Path(sys.argv[1]))\n"
        "labels = [str(i.label) for i in app.stack[-1].items(app)]\n"
        "assert type(app.stack[-1]).__name__ == 'GamesMenu' and 'Glory of Rome' in labels, labels\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[2:3] in (['caesar'], ['jc'], ['glory'], ['sword'])\n"
        "                and m.count('.') > 2 and not m.endswith('.record'))\n"
        "app.handle('down'); app.handle('down'); app.handle('a'); app.render()\n"
        "chosen = sorted(m for m in sys.modules if m.startswith('firmware.screens.glory.'))\n"
        "print(loaded, bool(chosen), type(app.stack[-1]).__name__)\n")
    root = str(__import__("pathlib").Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "a")], capture_output=True, text=True,
                         check=True, cwd=root).stdout
    assert out.strip() == "[] True SetupScreen", out
    resume = (                          # the main menu's Resume: the game's screens when it is chosen too
        "import sys\n"
        "from tests.screens import app_with\n"
        "from pathlib import Path\n"
        "app = app_with(['new glory players=Ann,Bob seed=1'], [], Path(sys.argv[1]))\n"
        "app.render()\n"
        "label = str(app.stack[-1].items(app)[0].label)\n"
        "loaded = [m for m in sys.modules if m.startswith('firmware.screens.glory.') and not m.endswith('.record')]\n"
        "app.handle('a'); app.render()\n"
        "print(label, loaded, type(app.stack[-1]).__name__)\n")
    out = subprocess.run([sys.executable, "-c", resume, str(tmp_path / "b")], capture_output=True, text=True,
                         check=True, cwd=root).stdout
    assert out.strip() == "▶ Glory of Rome [] GloryHome", out


@pytest.mark.parametrize("game", ["caesar-solo", "jc-battle", "glory players=Ann,Bob", "sword players=romans,gauls"])
def test_a_games_rules_read_their_data_files_without_importlib_resources(tmp_path, game):
    """Every game's engine read its tables through importlib.resources, whose own imports (zipfile,
    tempfile, shutil, lzma, bz2: 8 ms of processor time here, 0.1 s on a Pi) came before the first
    frame of a resumed game; its data files are now read beside the engine (engine/datafile.py).
    The rules still read them: a game is started, resumed and its state shown."""
    import subprocess
    probe = (
        "import sys\n"
        "from tests.screens import app_with\n"
        "from pathlib import Path\n"
        f"app = app_with(['new {game} seed=3'], [], Path(sys.argv[1]))\n"
        "app.console.close()\n"
        "from firmware.console import Console\n"
        "from firmware.store import Store\n"
        "store = Store(Path(sys.argv[1]))\n"
        "console = Console(store, store.resume())\n"
        "state = console.request('state')\n"
        "print(state['ok'], [m for m in ('importlib.resources', 'tempfile', 'shutil', 'zipfile') if m in sys.modules])\n")
    root = str(__import__("pathlib").Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "s")], capture_output=True, text=True,
                         check=True, cwd=root).stdout
    assert out.strip() == "True []", out


def test_a_game_whose_screens_are_not_there_says_soon(monkeypatch, state_dir):
    from firmware.screens import menu
    from firmware.screens.menu import GamesMenu
    from tests.screens import app_with
    gone = [r._replace(screens="firmware.screens.no_such_game.home:open_game") if r.ident == "glory" else r
            for r in records()]
    monkeypatch.setattr(menu, "records", lambda: gone)
    app = app_with([], [], state_dir)
    try:
        items = {str(i.label): i for i in GamesMenu().items(app)}
        assert items["Glory of Rome"].value == "soon"
        items["Glory of Rome"].run(app)
        assert app.message is not None and "coming soon" in " ".join(app.message)
    finally:
        app.console.close()
