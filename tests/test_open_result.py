"""The one helper keeping a result shown and not closed (firmware/screens/open_result.py): the
Sword's battle result (``sword.battle``) and Julius Caesar's last roll (``jc.roll``)."""
from __future__ import annotations

import logging

import pytest

from firmware.screens.open_result import EveryResult, OneResult, Shown


class Card:
    """The little of a context the marks use: the settings, a card that may refuse writes."""

    def __init__(self, **settings: str) -> None:
        self.settings: dict[str, str] = dict(settings)
        self.writes: list[str] = []
        self.full = False

    def set_setting(self, key: str, value: str) -> dict:
        if self.full:
            return {"ok": False, "error": "storage", "message": "the card refused"}
        self.writes.append(f"{key}={value}")
        self.settings[key] = value
        return {"ok": True}


MARK = "g1:0badf00d"


def one() -> OneResult:
    return OneResult("sword.battle", r"[^@~\s]*:[0-9a-f]{8}")


def test_one_result_open_page_draft_close():
    mark, card = one(), Card()
    assert mark.pending(card, MARK) is None
    mark.open(card, MARK)
    assert mark.pending(card, MARK) == Shown(MARK) and mark.pending(card, "g1:00000000") is None
    mark.open(card, MARK)                                  # kept so already: no write
    mark.open(card, MARK, 5, 2)
    assert card.settings["sword.battle"] == f"{MARK}@5~2" and mark.pending(card, MARK) == Shown(MARK, 5, 2)
    mark.close(card, "g1:00000000")                        # another result: this one stays open
    assert mark.pending(card, MARK) is not None
    mark.close(card, MARK)
    assert mark.pending(card, MARK) is None and card.writes == [
        f"sword.battle={MARK}", f"sword.battle={MARK}@5~2", "sword.battle=-"]


def test_an_older_cards_mark_still_reads():
    assert one().pending(Card(**{"sword.battle": MARK}), MARK) == Shown(MARK)
    assert one().kept(Card(**{"sword.battle": "-"})) is None


@pytest.mark.parametrize("value", ["g1:0badf00d@", "g1:0badf00d@-1", "g1:0badf00d@1~x", "g1:nothex00",
                                   "g1:0badf00d@99999", "@~", "g1:0badf00d extra"])
def test_a_damaged_value_is_reported_once_and_dropped(value, caplog):
    mark, card = one(), Card(**{"sword.battle": value})
    with caplog.at_level(logging.WARNING):
        assert mark.kept(card) is None and mark.pending(card, MARK) is None
        mark.kept(card)
    assert caplog.text.count("damaged") == 1
    mark.open(card, MARK)                                 # the next write replaces it
    assert mark.pending(card, MARK) == Shown(MARK)


def test_a_close_the_card_refuses_holds_for_the_run_only():
    mark, card = one(), Card()
    mark.open(card, MARK, 3)
    card.full = True
    mark.close(card, MARK)
    assert card.settings["sword.battle"] == f"{MARK}@3" and mark.pending(card, MARK) is None
    assert one().pending(card, MARK) == Shown(MARK, 3)    # the next start (another program): said again
    card.full = False
    mark.open(card, MARK)                                  # opened again (kept): open again
    assert mark.pending(card, MARK) == Shown(MARK)


def every() -> EveryResult:
    def read(kept: str, m: str) -> bool:
        return m in kept.split(";")

    def closing(kept: str, m: str) -> str:
        return ";".join([m, *(k for k in kept.split(";") if k)][:3])
    return EveryResult("jc.roll", r"[^:;]*:[^:;]*(?:;[^:;]*:[^:;]*)*", read, closing,
                       lambda ctx, value: [p for p in value.split(";") if p])


def test_every_result_is_open_until_closed_one_write():
    rolls, card = every(), Card()
    assert rolls.pending(card, "c:f1.1#a")
    rolls.close(card, "c:f1.1#a")
    rolls.close(card, "c:f1.1#a")
    assert not rolls.pending(card, "c:f1.1#a") and rolls.pending(card, "c:f1.2#b")
    assert card.writes == ["jc.roll=c:f1.1#a"]


def test_every_result_refused_close_and_damage(caplog):
    rolls, card = every(), Card(**{"jc.roll": "no colon here"})
    with caplog.at_level(logging.WARNING):
        assert rolls.pending(card, "c:f1.1#a") and rolls.kept(card) == ""
    assert "damaged" in caplog.text
    card.full = True
    rolls.close(card, "c:f1.1#a")
    assert not rolls.pending(card, "c:f1.1#a") and card.settings["jc.roll"] == "no colon here"
    assert every().pending(card, "c:f1.1#a")                # the next start says it again
    card.full = False
    rolls.close(card, "c:f1.2#b")                           # the next close keeps the refused one too
    assert card.settings["jc.roll"] == "c:f1.2#b;c:f1.1#a"
