"""For the Glory of Rome: the dials that lower fame offer only what the track allows (G-5: never
below space 1; G-4: no double tax whose penalty the fame cannot pay), and a push past that says so
in a short sentence, in the player's language."""
from __future__ import annotations

import pytest

from firmware.screens.glory.round import PenaltyDial, tax_form
from firmware.screens.glory.track import FameScreen
from firmware.screens.widgets import Dial
from tests.fakectx import FakeCtx

NEW = "new glory players=Jack,Henry,Mary,Ross seed=5"


def _shows(ctx: FakeCtx, text: str) -> bool:
    return any(text in t for t in ctx.texts())


def _penalty_dial(fame_up: int, lang: str = "en") -> FakeCtx:
    """Jack's double tax at population 4 (its penalty not in the table: the dial asks it, G-4)."""
    lines = [NEW, "event"] + ([f"fame Jack +{fame_up}"] if fame_up else [])
    ctx = FakeCtx(*lines, lang=lang)
    ctx.open(tax_form(ctx))
    ctx.press("right", "right", "right", "down", "right", "a")     # Jack, population 4, double
    assert isinstance(ctx.top, PenaltyDial)
    return ctx


@pytest.mark.parametrize("lang, said", [("en", "a penalty of at most 2"), ("ru", "штраф не больше 2"),
                                        ("uk", "штраф не більше 2")])
def test_the_penalty_dial_stops_at_what_the_fame_can_lose(lang, said):  # G-4, G-5
    """Jack on space 3 can lose 2: the dial went on to 30, «3 → -3» under it, and A brought a
    refusal of four rows. Now it stops at 2, says why, and A takes the tax at once."""
    ctx = _penalty_dial(2, lang)
    ctx.press("up")                                                 # 1 -> 2: within the fame
    dial = ctx.top
    assert isinstance(dial, Dial) and dial.value == 2 and not ctx.notes
    ctx.press("up")                                                 # past it: still 2, and why
    assert dial.value == 2 and _shows(ctx, "3 → 1")
    assert len(ctx.notes) == 1 and said in ctx.notes[0]
    ctx.press("right")                                              # ±5: still 2, said again
    assert dial.value == 2 and len(ctx.notes) == 2
    ctx.press("a")
    assert ctx.session is not None and ctx.session.lines[-1] == "tax Jack pop=4 double=1 penalty=2"
    assert ctx.view()["fame"]["Jack"] == 1


def test_the_penalty_dial_on_space_1_offers_no_penalty():  # G-4: «игроки не могут применить двойной налог…»
    ctx = _penalty_dial(0)
    assert _shows(ctx, "1 → 1") and ctx.top.value == 0            # it opened on 1: «1 → 0»
    ctx.press("up")
    assert ctx.top.value == 0 and ctx.notes and "space 1" in ctx.notes[-1]
    assert not any(line.startswith("tax") for line in ctx.lines)


def test_a_penalty_within_the_fame_is_not_refused():  # G-4
    ctx = _penalty_dial(10)
    ctx.press("right", "up")                                        # 1 -> 6 -> 7: within fame 11
    assert ctx.top.value == 7 and not ctx.notes
    ctx.press("a")
    assert ctx.view()["fame"]["Jack"] == 4


@pytest.mark.parametrize("lang, said", [("en", "a loss of at most 3"), ("ru", "потерять можно не больше 3"),
                                        ("uk", "втратити можна не більше 3")])
def test_the_fame_dial_lowers_fame_to_space_1_and_no_further(lang, said):  # G-5
    """Jack on space 4: the dial went to −99, «4 → 1», and journaled «fame Jack -4» (a loss the
    track cannot make, said «the track stops at 1»). Now it stops at −3."""
    ctx = FakeCtx(NEW, "fame Jack +3", lang=lang).open(FameScreen())
    ctx.press("a", "left")                                         # Jack: +1, −5 → stops at −3
    dial = ctx.top
    assert isinstance(dial, Dial) and dial.value == -3
    assert _shows(ctx, "4 → 1")
    assert ctx.notes and said in ctx.notes[-1]
    ctx.press("a")
    assert ctx.session is not None and ctx.session.lines[-1] == "fame Jack -3"
    assert ctx.view()["fame"]["Jack"] == 1


def test_the_fame_dial_on_space_1_takes_no_loss():  # G-5
    ctx = FakeCtx(NEW).open(FameScreen()).press("a", "down", "down")
    assert ctx.top.value == 0 and ctx.notes and "space 1" in ctx.notes[-1]
    ctx.press("up", "up")                                          # gains are as before
    assert ctx.top.value == 2 and len(ctx.notes) == 1


def test_the_fame_dial_follows_fame_changed_over_the_serial_link():  # G-5
    """The end is read from the game as it stands: fame lost meanwhile brings the figure within."""
    ctx = FakeCtx(NEW, "fame Jack +9").open(FameScreen()).press("a", "left", "left")
    assert ctx.top.value == -9
    ctx.run("fame Jack -5")                                        # 10 -> 5
    ctx.render()
    assert ctx.top.value == -4 and _shows(ctx, "5 → 1")
