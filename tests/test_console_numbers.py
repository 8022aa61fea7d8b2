"""One rule for every number a request types (docs/protocol.md, Framing: Numbers): decimal digits
as a number is written — no ``+`` (but where the number is a change or a modifier), no leading
zero, no ``_``. Python's ``int()`` read ``+3``, ``03`` and ``1_0`` as 3, 3 and 10, so they were run
— and journaled, listed by ``actions`` and exported as typed. Asked now, such a number is refused
(``bad_arguments``, in the link's language, nothing changed); a line an older Legatus stored
replays as it ran; full-width digits stay read as ASCII (tests/test_console_digits.py)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.errors import BadArguments
from firmware.console import Console
from firmware.store import Store

# (the lines that set a game up, the line with a number written otherwise, the same line written plainly)
CASES = [
    ([], "new bag items=gold*03,silver seed=1", "new bag items=gold*3,silver seed=1"),
    ([], "new bag items=gold*3 seed=+7", "new bag items=gold*3 seed=7"),
    (["new bag items=gold*3,silver*2 seed=3"], "draw 02", "draw 2"),
    (["new bag items=gold*3,silver*2 seed=3"], "draw 1_0", "draw 1"),
    ([], "roll 01d6 seed=1", "roll 1d6 seed=1"),
    ([], "roll 2d06 seed=1", "roll 2d6 seed=1"),
    (["new dice seed=1"], "roll 2d6+01", "roll 2d6+1"),
    (["new dice seed=1", "roll 3d6"], "reroll 1,+2", "reroll 1,2"),
    (["new dice seed=1", "roll 3d6"], "rolls 02", "rolls 2"),
    (["new dice seed=1", "roll 3d6"], "log 02", "log 2"),
    (["new dice seed=1", "roll 3d6"], "actions 1_0", "actions 10"),
    ([], "history 05", "history 5"),
    (["new dice seed=1", "kit new cards=a*2,b"], "kit card 01", "kit card 1"),
    (["new dice seed=1"], "kit new items=a*+2", "kit new items=a*2"),
    # J-1: a block's strength; J-9: the faces of physical dice
    (["new jc-battle attacker=caesar seed=11"], "add attacker c_leg10 strength=+3", "add attacker c_leg10 strength=3"),
    (["new jc-battle attacker=caesar seed=11"], "add attacker c_leg10 strength=03", "add attacker c_leg10 strength=3"),
    (["new jc-battle attacker=caesar dice=physical seed=11", "add attacker c_leg10 strength=2",
      "add defender p_leg1 strength=2", "start"], "fire p_leg1 dice=1,06", "fire p_leg1 dice=1,6"),
    (["new jc-battle attacker=caesar dice=physical seed=11", "add attacker c_leg10 strength=2",
      "add defender p_leg1 strength=2", "start"], "fire p_leg1 dice=1,,6", "fire p_leg1 dice=1,6"),
    # W-1 tactics rating and die, W-2 battle dice, W-11 VP
    ([], "sword-tactics 03 die=6", "sword-tactics 3 die=6"),
    ([], "sword-tactics 3 die=+6", "sword-tactics 3 die=6"),
    ([], "sword-battle att=12 def=5 mod=3 att-dice=5,2,02 def-dice=4,5,5",
     "sword-battle att=12 def=5 mod=3 att-dice=5,2,2 def-dice=4,5,5"),
    ([], "sword-odds mod=+02", "sword-odds mod=+2"),
    (["new sword players=romans,gauls seed=2"], "vp romans +05", "vp romans +5"),
    (["new sword players=romans,gauls seed=2"], "tactics 02 die=6 kind=avoid", "tactics 2 die=6 kind=avoid"),
    ([], "new sword players=romans,gauls vp=romans:05 seed=2", "new sword players=romans,gauls vp=romans:5 seed=2"),
    # G-5 fame; G-2 starting fame
    (["new glory players=Jack,Henry,Mary seed=1"], "fame Jack +03", "fame Jack +3"),
    (["new glory players=Jack,Henry,Mary seed=1"], "pick 03", None),
    ([], "new glory players=Jack,Henry,Mary fame=01,1,1 seed=1", "new glory players=Jack,Henry,Mary fame=1,1,1 seed=1"),
    # C-4: a token's numbers
    (["new caesar-solo side=caesar difficulty=easy seed=1"], "crassus draw=ship:05/1",
     None),
    (["new caesar-solo side=caesar difficulty=easy seed=1"],
     'position {"spaces": {"SC-SD": {"by": "crassus", "token": "ship:05/1", "toward": {"SC": 5, "SD": 1}}}}',
     'position {"spaces": {"SC-SD": {"by": "crassus", "token": "ship:5/1", "toward": {"SC": 5, "SD": 1}}}}'),
]


def _console(d: Path) -> Console:
    d.mkdir(exist_ok=True)
    store = Store(d)
    return Console(store, store.resume())


def _seen(c: Console) -> tuple[Any, ...]:
    """What a refusal must leave as it was: the state, the journal and History."""
    state = c.request("state")
    return (state.get("state"), c.request("actions 500").get("actions"), c.request("history").get("games"))


@pytest.mark.parametrize("setup,written,plain", CASES, ids=[c[1] for c in CASES])
def test_a_number_written_otherwise_is_refused_and_changes_nothing(tmp_path: Path, setup: list[str],
                                                                   written: str, plain: str | None):
    c = _console(tmp_path / "s")
    try:
        for line in setup:
            assert c.request(line)["ok"], line
        before = _seen(c)
        out = c.request(written)
        assert out["ok"] is False and out["error"] == "bad_arguments", out
        assert "plain digits" in out["message"] or "die faces" in out["message"], out
        assert _seen(c) == before
        if plain is not None:                      # the same request written plainly is taken
            assert c.request(plain)["ok"], plain
    finally:
        c.close()


@pytest.mark.parametrize("lang,said", [("ru", "простыми цифрами: strength=3"), ("uk", "простими цифрами: strength=3")])
def test_the_refusal_is_said_in_the_links_language(console: Console, lang: str, said: str):
    assert console.request(f"settings language={lang}")["ok"]
    assert console.request("new jc-battle attacker=caesar seed=1")["ok"]
    out = console.request("add attacker c_leg10 strength=03")
    assert out["error"] == "bad_arguments" and said in out["message"] and "«strength=03»" in out["message"]


@pytest.mark.parametrize("line", ["sword-odds mod=-2", "sword-odds mod=+2", "sword-odds mod=2", "sword-odds mod=0",
                                  "sword-tactics 4 mod=-1 die=3", "roll 2d6-1 seed=3", "roll 2d6+0 seed=3"])
def test_a_modifier_takes_its_sign_either_way(console: Console, line: str):   # W-1, W-2
    assert console.request(line)["ok"], line


def test_a_full_width_number_is_still_read_as_ascii(console: Console):
    assert console.request("new jc-battle attacker=caesar seed=1")["ok"]
    assert console.request("add attacker c_leg10 strength=３")["ok"]
    assert console.request("actions")["actions"][0]["line"] == "add attacker c_leg10 strength=3"


def test_the_rule_itself():
    from engine.game import whole_number
    assert [whole_number(x) for x in ("0", "7", "10", "-3")] == [0, 7, 10, -3]
    assert whole_number("+3", signed=True) == 3 and whole_number("-0", signed=True) == 0
    for typed in ("+3", "03", "1_0", " 3", "-0", "00"):
        with pytest.raises(BadArguments):
            whole_number(typed)
    for typed in ("+03", "-03", "+1_0"):
        with pytest.raises(BadArguments):
            whole_number(typed, signed=True)
    for typed in ("", "x", "3.0", "1e3"):
        with pytest.raises(ValueError):
            whole_number(typed)
    assert whole_number("03", asked=False) == 3 and whole_number("+3", asked=False) == 3   # a stored line replays


def test_a_line_an_older_legatus_stored_with_such_numbers_still_resumes(state_dir: Path):   # J-1
    from firmware.session import Session
    store = Store(state_dir)
    old = Session.start("new jc-battle attacker=caesar seed=+3", 3, "old")
    store.begin(old)
    for line in ("add attacker c_leg10 strength=03", "add defender p_leg1 strength=+2"):
        outcome, new_json = old.run(line)
        assert new_json is not None
        store.commit(old, line, outcome, new_json)
    store.close()
    c = _console(state_dir)
    try:
        blocks = {b["id"]: b["strength"] for b in _blocks(c.request("state")["state"])}
        assert blocks == {"c_leg10": 3, "p_leg1": 2}
        assert c.request("undo")["ok"] and c.request("state")["state"]
    finally:
        c.close()


def _blocks(state: dict[str, Any]) -> list[dict[str, Any]]:
    return list(state["battle"]["blocks"])


@pytest.mark.parametrize("stored", ["add attacker c_leg10\u00a0strength=03", "add attacker c_leg10 strength=０３"])
def test_an_older_legatus_game_reopened_from_earlier_games_replays_its_lines(state_dir: Path, stored: str):  # J-1
    """Earlier games gives a game's stored lines again, read as a request is (no-break spaces as spaces,
    digits as ASCII): such a line no longer matched the stored one, so it ran as asked now, held to
    the number rule it was never held to, and the reopened game stopped there."""
    from firmware.session import Session
    store = Store(state_dir)
    old = Session.start("new jc-battle attacker=caesar seed=3", 3, "old")
    store.begin(old)
    for line in (stored, "add defender p_leg1 strength=2"):
        outcome, new_json = old.run(line)
        assert new_json is not None
        store.commit(old, line, outcome, new_json)
    store.close()
    c = _console(state_dir)
    try:
        header, lines = dict(c.session.header), list(c.session.lines)
        assert c.request("new dice seed=1")["ok"]                     # the game goes to Earlier games
        assert c.reopen(header["line"], int(header["seed"]), False, int(header.get("v") or 0), False, lines,
                        was=str(header["sid"]))["ok"]
        for line in lines:
            assert c.request(line)["ok"], line
        assert {b["id"]: b["strength"] for b in _blocks(c.request("state")["state"])} == {"c_leg10": 3, "p_leg1": 2}
    finally:
        c.close()
