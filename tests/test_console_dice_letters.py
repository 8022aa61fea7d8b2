"""The console's dice as a Russian or Ukrainian player types them (docs/protocol.md, ``roll``):
«2к6» (к: кубик) and «2д6» are the same roll as 2d6, and so is «2в6» (the D key in the Cyrillic
layout); run, journaled and answered as ``2d6``. What is a dice expression written otherwise (the
Latin k, a minus from a phone, spaces inside) is refused with the one meant, nothing rolled.
Before, each was "'2к6' is not a dice expression; write NdS …" — the player read 2к6 as NdS."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import dice
from firmware.console import Console
from firmware.store import Store


def _console(d: Path) -> Console:
    d.mkdir(exist_ok=True)
    store = Store(d)
    return Console(store, store.resume())


@pytest.mark.parametrize("typed", ["2к6", "2К6", "2д6", "2Д6", "2в6", "2В6"])
def test_a_cyrillic_die_letter_rolls_the_same_dice_and_is_stored_as_d(tmp_path: Path, typed: str):
    latin, cyrillic = _console(tmp_path / "latin"), _console(tmp_path / "cyrillic")
    for c, line in ((latin, "roll 2d6+1"), (cyrillic, f"roll {typed}+1")):
        assert c.request("new dice seed=7")["ok"]
        got = c.request(line)
        assert got["ok"], got
    assert cyrillic.request("rolls")["rolls"] == latin.request("rolls")["rolls"]
    assert cyrillic.request("actions")["actions"][0]["line"] == "roll 2d6+1"      # journaled as typed in Latin
    cyrillic.close()
    again = _console(tmp_path / "cyrillic")                                           # a restart replays it
    assert again.request("rolls")["rolls"] == latin.request("rolls")["rolls"]
    again.close()
    latin.close()


def test_without_a_session_the_cyrillic_letter_rolls_too(console: Console):
    assert console.request("roll 3к6 seed=4") == console.request("roll 3d6 seed=4")
    assert console.request("roll к20 seed=4")["ok"]


def _seen(c: Console) -> tuple[Any, ...]:
    return c.request("state").get("state"), c.request("actions 500").get("actions")


@pytest.mark.parametrize("line,meant", [("roll 2k6", "2d6"), ("roll 2K6+1", "2d6+1"), ("roll 2d6−1", "2d6-1"),
                                        ("roll 2d6–1", "2d6-1"), ("roll 2d6 + 1", "2d6+1"), ("roll 2d6 +1", "2d6+1"),
                                        ("roll 2 d6", "2d6"), ("roll 2к6 - 1", "2d6-1")])
@pytest.mark.parametrize("session", [True, False])
def test_an_expression_written_otherwise_is_refused_with_the_one_meant(console: Console, line: str, meant: str,
                                                                       session: bool):
    if session:
        assert console.request("new dice seed=2")["ok"]
        assert console.request("roll 1d6")["ok"]
    before = _seen(console)
    got = console.request(line)
    assert got["error"] == "bad_arguments" and f"did you mean {meant}?" in got["message"], got
    assert _seen(console) == before


@pytest.mark.parametrize("lang,said", [("ru", "«2k6» — не бросок кубиков; может быть, 2d6? Ничего не брошено."),
                                       ("uk", "«2k6» — не кидок кубиків; можливо, 2d6? Нічого не кинуто.")])
def test_the_refusal_is_said_in_the_players_language(console: Console, lang: str, said: str):
    assert console.request(f"settings language={lang}")["ok"]
    assert console.request("roll 2k6")["message"] == said


def test_what_is_no_dice_expression_at_all_still_says_how_to_write_one():
    assert dice.meant_dice("2x6") is None and dice.meant_dice("2d6") is None and dice.meant_dice("к") is None
    with pytest.raises(Exception, match="write NdS"):
        dice.parse_dice("2x6", asked=True)
    assert dice.plain_dice("2к6+1") == "2d6+1" and dice.plain_dice("2D6") == "2D6" and dice.plain_dice("к") == "к"
