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
    assert ctx.top.items(ctx)[0].label == "Resume: Legions"
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
