"""The screen tests' context (tests/fakectx.py) takes stale screens off as the App does, so a screen
test catches a screen left showing a state that changed under it (firmware/screens/ctx.py ``Shows``)."""
from __future__ import annotations

from firmware.screens.caesar.home import CaesarHome
from firmware.screens.caesar.move import PlayMap
from tests.fakectx import FakeCtx


def test_a_move_played_over_the_serial_link_takes_its_map_off():    # C-6: the choice of a move made
    ctx = FakeCtx("new caesar-solo seed=3", "crassus").open(CaesarHome()).open(PlayMap())
    ctx.render()                                       # shown at the step it chooses for
    ctx.link("state")                                  # a read changes nothing: it stays
    assert isinstance(ctx.top, PlayMap)
    assert ctx.link("play HU-HC wild:3/1 HC")["ok"]
    assert isinstance(ctx.top, CaesarHome)            # the home says what the game waits for now


def test_an_undo_takes_off_what_it_made_stale_and_keeps_the_rest():
    ctx = FakeCtx("new caesar-solo seed=3", "crassus", "play HU-HC wild:3/1 HC").open(CaesarHome())
    ctx.render()
    ctx.link("undo")                                   # the home shows the game as it is now: it stays
    assert isinstance(ctx.top, CaesarHome) and len(ctx.stack) == 2


def test_a_screen_that_cannot_tell_is_taken_off():
    class Broken:
        title = "broken"

        def render(self, ctx):
            return None

        def key(self, key, ctx):
            return None

        def stale(self, ctx):
            raise KeyError("no state")

    ctx = FakeCtx("new dice seed=1").open(Broken())
    assert ctx.drop_stale().top.title != "broken"
