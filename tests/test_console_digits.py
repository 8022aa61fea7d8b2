"""One rule for every game's console numbers (docs/protocol.md, Framing): a request's digits of
another script — the full-width ０–９ a laptop's IME types, Arabic-Indic ٠–٩ … — are read as the
ASCII digits they are, and the request is run, journaled, listed by ``actions`` and answered with
ASCII digits, exactly as the same request typed in ASCII (JC, Sword, the dice kit)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.game import ascii_digits
from firmware.console import Console
from firmware.store import Store

FULL = str.maketrans("0123456789", "０１２３４５６７８９")


def _answers(state_dir: Path, lines: list[str]) -> list[dict[str, Any]]:
    state_dir.mkdir()
    store = Store(state_dir)
    c = Console(store, store.resume())
    try:
        return [c.request(line) for line in lines]
    finally:
        c.close()


def _same_as_ascii(tmp_path: Path, lines: list[str]) -> list[dict[str, Any]]:
    """The replies to ``lines`` typed in full-width digits, checked equal to the ASCII ones."""
    plain = _answers(tmp_path / "ascii", lines)
    wide = _answers(tmp_path / "wide", [line.translate(FULL) for line in lines])
    assert all(r["ok"] for r in plain), plain
    assert wide == plain
    assert not any(ch in json.dumps(wide, ensure_ascii=False) for ch in "０１２３４５６７８９")
    return wide


def test_the_rule_reads_every_scripts_decimal_digits_as_ascii():
    assert ascii_digits("add attacker c_leg10 strength=３") == "add attacker c_leg10 strength=3"
    assert ascii_digits("fire c_leg10 dice=١,٢,٣") == "fire c_leg10 dice=1,2,3"      # Arabic-Indic
    assert ascii_digits("roll 1d６ Легион №２") == "roll 1d6 Легион №2"               # letters kept
    assert ascii_digits("roll ²d6") == "roll ²d6"         # a superscript is no decimal digit: int() refuses it too


def test_jc_numbers_typed_full_width_are_journaled_and_answered_in_ascii(tmp_path: Path):  # J-9, J-10
    out = _same_as_ascii(tmp_path, [
        "new jc-battle attacker=caesar dice=physical seed=11", "add attacker c_leg10 strength=3",
        "add defender p_leg1 strength=2", "start", "fire p_leg1 dice=1,6", "actions"])
    assert [a["line"] for a in out[-1]["actions"]][:2] == ["fire p_leg1 dice=1,6", "start"]


def test_sword_numbers_typed_full_width_are_journaled_and_answered_in_ascii(tmp_path: Path):  # W-1, W-2
    out = _same_as_ascii(tmp_path, [
        "sword-battle att=12 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5",
        "new sword players=romans,gauls seed=2", "tactics 2 die=6 kind=avoid", "actions"])
    assert out[-1]["actions"][0]["line"] == "tactics 2 die=6 kind=avoid"


def test_kit_rolls_typed_full_width_are_journaled_and_answered_in_ascii(tmp_path: Path):
    out = _same_as_ascii(tmp_path, ["new dice seed=3", "roll 1d6", "roll 2d6+1", "actions"])
    assert [r["expr"] for r in out[2]["state"]["rolls"]] == ["1d6", "2d6+1"]
    assert [a["line"] for a in out[-1]["actions"]] == ["roll 2d6+1", "roll 1d6"]


@pytest.mark.parametrize("line", ["strength=٣", "strength=３"])
def test_the_stored_line_is_ascii_after_a_restart(tmp_path: Path, line: str):  # J-9
    d = tmp_path / "state"
    _answers(d, ["new jc-battle attacker=caesar seed=1", f"add attacker c_leg10 {line}"])
    store = Store(d)
    c = Console(store, store.resume())
    try:
        assert c.request("actions")["actions"][0]["line"] == "add attacker c_leg10 strength=3"
    finally:
        c.close()
